// Image pipeline benchmark: time and peak memory to turn phone photos into
// the stored large JPEG and WebP variants (app/services/images.server.ts).
//
// Run:  npm run bench:images
//   or  node --import tsx bench/images.mjs
//
// Each measurement runs in its own child process, so its peak RSS (the
// kernel's ru_maxrss) belongs to that measurement alone. The photo is a
// generated 4000×3000 JPEG with noise, about 5 MB like a phone's.
import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { VARIANT_WIDTHS } from "../app/lib/image-variants";
import { PHONE_HEIGHT, PHONE_WIDTH, phoneLikeJpeg } from "./lib.mjs";

const CONCURRENT = 5;
const self = fileURLToPath(import.meta.url);

/** In a child: load the pipeline, process `count` copies at once, report. */
async function child(mode, photo, storeDir) {
  const { storeImage } = await import("~/services/images.server");
  const { diskStorage } = await import("~/services/storage.server");
  const store = diskStorage(storeDir);
  const count = mode === "baseline" ? 0 : Number(mode);
  const started = performance.now();
  await Promise.all(Array.from({ length: count }, (_, i) => storeImage(photo, `bench-${i}.jpg`, "bench", store)));
  const ms = performance.now() - started;
  process.stdout.write(JSON.stringify({ ms, maxRssKb: process.resourceUsage().maxRSS }));
}

function measure(mode, photo, storeDir, env = {}) {
  const run = spawnSync(process.execPath, ["--import", "tsx", self, "--child", mode, photo, storeDir], {
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  if (run.status !== 0) throw new Error(`child ${mode} failed:\n${run.stderr}`);
  return JSON.parse(run.stdout);
}

async function main() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-bench-"));
  try {
    const photo = path.join(dir, "photo.jpg");
    await fs.writeFile(photo, await phoneLikeJpeg());
    const { size } = await fs.stat(photo);
    const mb = (kb) => (kb / 1024).toFixed(0);

    const baseline = measure("baseline", photo, path.join(dir, "s0"));
    const rows = [["modules loaded, nothing processed", "–", mb(baseline.maxRssKb)]];
    const arenas = process.env.MALLOC_ARENA_MAX;
    const cases = [
      ["1 photo", 1, {}],
      [`${CONCURRENT} photos at once`, CONCURRENT, {}],
      // glibc gives each libvips thread its own heap; capping the heaps keeps
      // fragmentation down (set in the server's environment, not from inside Node).
      ...(arenas ? [] : [[`${CONCURRENT} photos at once, MALLOC_ARENA_MAX=2`, CONCURRENT, { MALLOC_ARENA_MAX: "2" }]]),
    ];
    for (const [label, n, env] of cases) {
      // Three runs each; the fastest time and the lowest peak are the least disturbed by other load.
      const runs = [1, 2, 3].map((r) => measure(String(n), photo, path.join(dir, `s${rows.length}-${r}`), env));
      const ms = Math.min(...runs.map((r) => r.ms));
      const rss = Math.min(...runs.map((r) => r.maxRssKb));
      rows.push([label, `${(ms / 1000).toFixed(2)} s`, mb(rss)]);
    }

    console.log(
      `Photo: ${PHONE_WIDTH}×${PHONE_HEIGHT} JPEG (12 MP), ${(size / 1024 / 1024).toFixed(1)} MB, EXIF orientation 6.` +
        ` Node ${process.version}, ${os.cpus().length} CPUs, UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? "4 (default)"}` +
        `, MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? "unset"}.`,
    );
    console.log(
      `Each row: best of 3 runs in a fresh process (storeImage to local disk: large JPEG + WebP and AVIF ${VARIANT_WIDTHS.join("/")}).\n`,
    );
    const head = ["case", "time", "peak RSS (MB)"];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
    console.log(line(head));
    console.log(widths.map((w) => "-".repeat(w)).join("  "));
    for (const r of rows) console.log(line(r));
    console.log(
      "\nPeak RSS includes tsx, which compiles the TypeScript here (about 35 MB a built server does not carry).",
    );
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--child") {
  await child(process.argv[3], process.argv[4], process.argv[5]);
} else {
  await main();
}
