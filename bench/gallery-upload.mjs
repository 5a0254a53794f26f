// Album upload benchmark: peak memory of the server and total time to add
// 30 generated 12-megapixel JPEGs to one album through the real HTTP routes,
// the way the pastor's browser sends them.
//
//   node bench/gallery-upload.mjs          (after `npx remix build`)
//
// Two runs, each on a fresh server and database (bench/lib.mjs):
//   script   what the editor's script does: one photo per request to
//            /strefapastora/galeria/dodaj/zdjecia, two at a time (the first
//            alone, it creates the draft), then the order, then 'zapisz'
//   no-script what a browser without JavaScript does: the form posted with
//            10 photos at a time (the most one post takes), then 'zapisz'
// Reported: total time, the slowest single request (a proxy in front must
// allow it; 60 s is common), the server's peak RSS (VmHWM of its process,
// which includes start-up and the demo seed) and its RSS after start-up.
//
// Environment: BENCH_PHOTOS (30), BENCH_SEED_DEMO (1; 0 starts as a real
// deployment does, without the demo content), TEST_DATABASE_URL (Postgres to create the
// database on). The photos are generated once into the system temp folder.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { signIn, startServer } from "./lib.mjs";

const COUNT = Number(process.env.BENCH_PHOTOS ?? 30);
const WIDTH = 4000;
const HEIGHT = 3000;
const PER_POST = 10;
const ADMIN = { email: "bench@example.org", password: "bench-haslo-bench-haslo" };

/** 12-megapixel JPEGs with sensor-like noise, about as heavy and slow to decode as a phone's. */
async function photos() {
  const dir = path.join(os.tmpdir(), "zbor-bench-12mp");
  fs.mkdirSync(dir, { recursive: true });
  const files = [];
  for (let i = 0; i < COUNT; i++) {
    const file = path.join(dir, `IMG_${String(i + 1).padStart(4, "0")}.JPG`);
    if (!fs.existsSync(file)) {
      const noise = await sharp({
        create: {
          width: WIDTH,
          height: HEIGHT,
          channels: 3,
          background: "#000",
          noise: { type: "gaussian", mean: 128, sigma: 28 },
        },
      })
        .raw()
        .toBuffer();
      const tint = sharp({
        create: { width: WIDTH, height: HEIGHT, channels: 3, background: `hsl(${(i * 37) % 360}, 55%, 55%)` },
      });
      await tint
        .composite([{ input: noise, raw: { width: WIDTH, height: HEIGHT, channels: 3 }, blend: "overlay" }])
        .jpeg({ quality: 90 })
        .toFile(file);
    }
    files.push(file);
  }
  return files;
}

function memory(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)[1]);
  return { hwmKb: field("VmHWM"), rssKb: field("VmRSS") };
}

/** A tiny cookie jar and a signed-in pastor session over plain HTTP. */
/** The session and the album editor's form token (the editor's script sends them with every post). */
async function signInToEditor(base) {
  const { cookie, csrf } = await signIn(base, ADMIN.email, ADMIN.password, "/strefapastora/galeria/dodaj");
  return { csrf, cookie: () => cookie };
}

/** A multipart body: the token first, then fields, then the files (streamed from disk by fetch). */
async function multipart(csrf, fields, files) {
  const form = new FormData();
  form.append("csrf", csrf);
  for (const [k, v] of fields) form.append(k, v);
  for (const file of files)
    form.append("zdjecia", await fs.openAsBlob(file, { type: "image/jpeg" }), path.basename(file));
  return form;
}

const VALUES = [
  ["title", "Obóz młodzieży – benchmark"],
  ["description", "30 zdjęć z telefonu."],
  ["date", "2025-07-20"],
];

async function timed(fn) {
  const t = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t };
}

async function scriptRun(base, session, files) {
  const slowest = { ms: 0 };
  let draftId = null;
  const keys = new Array(files.length);
  const upload = async (i) => {
    const fields = [...(draftId ? [["szkic", draftId]] : []), ...VALUES, ["intent", "upload"]];
    const { value: res, ms } = await timed(async () =>
      fetch(`${base}/strefapastora/galeria/dodaj/zdjecia`, {
        method: "POST",
        headers: { Cookie: session.cookie(), Origin: base, "X-CSRF-Token": session.csrf },
        body: await multipart(session.csrf, fields, [files[i]]),
      }),
    );
    const body = await res.json();
    if (res.status !== 200 || !body.results?.[0]?.ok)
      throw new Error(`upload ${i} failed: ${res.status} ${JSON.stringify(body)}`);
    slowest.ms = Math.max(slowest.ms, ms);
    draftId = body.draftId;
    keys[i] = body.results[0].image.key;
  };
  await upload(0);
  let next = 1;
  await Promise.all(
    [0, 1].map(async () => {
      while (next < files.length) await upload(next++);
    }),
  );
  const order = new URLSearchParams([
    ["csrf", session.csrf],
    ["szkic", draftId],
    ["intent", "reorder"],
    ...keys.map((k) => ["order", k]),
  ]);
  const reordered = await fetch(`${base}/strefapastora/galeria/dodaj/zdjecia`, {
    method: "POST",
    headers: { Cookie: session.cookie(), Origin: base },
    body: order,
  });
  if (!reordered.ok) throw new Error(`reorder failed: ${reordered.status}`);
  return { draftId, slowestMs: slowest.ms };
}

async function formRun(base, session, files) {
  let draftId = null;
  let slowestMs = 0;
  for (let i = 0; i < files.length; i += PER_POST) {
    const url = `${base}/strefapastora/galeria/dodaj${draftId ? `?szkic=${draftId}` : ""}`;
    const { value: res, ms } = await timed(async () =>
      fetch(url, {
        method: "POST",
        redirect: "manual",
        headers: { Cookie: session.cookie(), Origin: base },
        body: await multipart(session.csrf, [...VALUES, ["intent", "upload"]], files.slice(i, i + PER_POST)),
      }),
    );
    const location = res.headers.get("Location") ?? "";
    if (res.status !== 302 || !location.includes("szkic="))
      throw new Error(`post ${i / PER_POST} failed: ${res.status}`);
    draftId = new URL(location, base).searchParams.get("szkic");
    slowestMs = Math.max(slowestMs, ms);
  }
  return { draftId, slowestMs };
}

async function save(base, session, draftId) {
  const res = await fetch(`${base}/strefapastora/galeria/dodaj?szkic=${draftId}`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: session.cookie(), Origin: base },
    body: await multipart(session.csrf, [...VALUES, ["intent", "save"]], []),
  });
  if (res.status !== 302 || !res.headers.get("Location")?.startsWith("/strefapastora/galeria/Ob")) {
    throw new Error(`save failed: ${res.status} ${res.headers.get("Location")}`);
  }
}

async function run(mode, files) {
  // As `npm start` and the Dockerfile run it.
  const server = await startServer({
    // BENCH_SEED_DEMO=0: as a real deployment starts (no demo content made at start).
    env: {
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      MALLOC_ARENA_MAX: "2",
      MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? "131072",
      SEED_DEMO: process.env.BENCH_SEED_DEMO ?? "1",
    },
  });
  try {
    const session = await signInToEditor(server.base);
    const idle = memory(server.pid);
    const started = performance.now();
    const { draftId, slowestMs } = await (mode === "script" ? scriptRun : formRun)(server.base, session, files);
    await save(server.base, session, draftId);
    const totalMs = performance.now() - started;
    const [{ n }] =
      await server.sql`select count(*)::int as n from gallery_images gi join galleries g on g.id = gi.gallery_id where g.title = ${VALUES[0][1]}`;
    if (n !== files.length) throw new Error(`album has ${n} photos, expected ${files.length}`);
    return { mode, totalMs, slowestMs, ...memory(server.pid), idleRssKb: idle.rssKb };
  } finally {
    await server.stop();
  }
}

const files = await photos();
const bytes = files.reduce((n, f) => n + fs.statSync(f).size, 0);
console.log(
  `${files.length} photos, ${WIDTH}×${HEIGHT} (12 MP), ${(bytes / files.length / 1024 / 1024).toFixed(1)} MB each on average`,
);
console.log(`machine: ${os.cpus().length} CPUs, Node ${process.version}`);
for (const mode of ["script", "no-script"]) {
  const r = await run(mode, files);
  console.log(
    `${mode.padEnd(9)}  total ${(r.totalMs / 1000).toFixed(1)} s (${(r.totalMs / files.length / 1000).toFixed(2)} s a photo)` +
      `  slowest request ${(r.slowestMs / 1000).toFixed(1)} s` +
      `  server peak RSS ${(r.hwmKb / 1024).toFixed(0)} MB` +
      ` (after start ${(r.idleRssKb / 1024).toFixed(0)} MB, at the end ${(r.rssKb / 1024).toFixed(0)} MB)`,
  );
}
