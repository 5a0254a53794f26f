// Server memory while the pastor's photos arrive: peak RSS of the built
// server while 5 uploads of a 12-megapixel JPEG to /strefapastora/artykuly/dodaj
// run at once (bench/images.mjs measures the pipeline alone, in-process).
//
// Run (after `npx remix build`, with Postgres at TEST_DATABASE_URL or the
// local test server):   node bench/article-upload.mjs
//
// The server is started as bench/lib.mjs does, signed in to through the
// login form with ADMIN_EMAIL/ADMIN_PASSWORD (defaults below when unset),
// and its peak resident set is read from VmHWM in /proc/<pid>/status.
// Each configuration gets a fresh server so that its peak is its own.
import os from "node:os";
import { PHONE_HEIGHT, PHONE_WIDTH, memory, phoneLikeJpeg, signIn, startServer } from "./lib.mjs";

const CONCURRENT = 5;
const ROUNDS = 2;
const ADMIN_EMAIL = process.env.ADMIN_EMAIL ?? "bench@example.org";
const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD ?? "bench-haslo-12345";

async function upload(base, session, photo, n) {
  const body = new FormData();
  body.append("csrf", session.csrf);
  body.append("image", new Blob([photo], { type: "image/jpeg" }), `IMG_${String(n).padStart(4, "0")}.JPG`);
  body.append("header", `Zdjęcie z telefonu ${n}`);
  body.append("text", "Relacja z niedzieli.");
  body.append("date", "2025-06-01");
  const res = await fetch(`${base}/strefapastora/artykuly/dodaj`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: base, Cookie: session.cookie },
    body,
  });
  await res.arrayBuffer();
  if (res.status !== 302) throw new Error(`upload ${n} answered ${res.status}`);
}

async function measure(label, env, photo) {
  const server = await startServer({
    env: { ...env, ADMIN_EMAIL, ADMIN_PASSWORD, SEED_DEMO: "0" },
  });
  try {
    const session = await signIn(server.base, ADMIN_EMAIL, ADMIN_PASSWORD);
    const idle = memory(server.pid);
    const rounds = [];
    let n = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const started = performance.now();
      await Promise.all(Array.from({ length: CONCURRENT }, () => upload(server.base, session, photo, ++n)));
      const seconds = (performance.now() - started) / 1000;
      rounds.push({ seconds, ...memory(server.pid) });
    }
    const [{ count }] = await server.sql`select count(*)::int as count from articles`;
    if (count !== n) throw new Error(`expected ${n} articles, found ${count}`);
    return { label, idle, rounds };
  } finally {
    await server.stop();
  }
}

const inherited = process.env.MALLOC_ARENA_MAX;
// Each configuration states its own value; none leaks in from this shell.
delete process.env.MALLOC_ARENA_MAX;

const photo = await phoneLikeJpeg();
const results = [];
for (const [label, env] of [
  ["glibc default arenas", {}],
  // What `npm start` and the Dockerfile set.
  ["MALLOC_ARENA_MAX=2 (npm start)", { MALLOC_ARENA_MAX: "2" }],
]) {
  results.push(await measure(label, env, photo));
}
if (inherited !== undefined) process.env.MALLOC_ARENA_MAX = inherited;

const mb = (v) => v.toFixed(0);
console.log(
  `Photo: ${PHONE_WIDTH}×${PHONE_HEIGHT} JPEG (12 MP), ${(photo.length / 1024 / 1024).toFixed(1)} MB, EXIF orientation 6. ` +
    `${CONCURRENT} multipart POSTs to /strefapastora/artykuly/dodaj at once, ${ROUNDS} rounds, one signed-in session.`,
);
console.log(`Node ${process.version}, ${os.cpus().length} CPUs, built server (remix-serve), Postgres, disk storage.\n`);
const head = ["server", "idle RSS", "round", "time", "RSS after", "peak RSS (VmHWM)"];
const rows = [];
for (const r of results) {
  r.rounds.forEach((round, i) => {
    rows.push([
      i === 0 ? r.label : "",
      i === 0 ? `${mb(r.idle.rssMb)} MB` : "",
      String(i + 1),
      `${round.seconds.toFixed(2)} s`,
      `${mb(round.rssMb)} MB`,
      `${mb(round.peakMb)} MB`,
    ]);
  });
}
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
console.log(line(head));
console.log(widths.map((w) => "-".repeat(w)).join("  "));
for (const row of rows) console.log(line(row));
console.log('\nVmHWM is the process\'s peak resident set since it started; "idle" is after start-up and sign-in.');
