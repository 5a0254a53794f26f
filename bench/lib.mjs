// Shared by the benchmarks: start the built server on a fresh Postgres
// database (demo content seeded by the server), and clean up afterwards.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { freePort } from "../scripts/lib.mjs";

export { freePort };

export const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** Reads utime + stime of a process in clock ticks (see `getconf CLK_TCK`); null when it is gone. */
export function cpuTicks(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may contain spaces; the fields after it are fixed.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/** Signals a child and waits for its exit, killing it after `timeoutMs`. */
export async function stopChild(child, { signal = "SIGTERM", timeoutMs = 10_000 } = {}) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  await exited;
  clearTimeout(timer);
}

async function dropDatabase(name) {
  const a = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  try {
    await a.unsafe(`drop database if exists "${name}" with (force)`);
  } finally {
    await a.end();
  }
}

/**
 * Creates a database, lets `prepare(env)` fill it (in the server's
 * environment, before the server runs), then starts the built server, its
 * stdout (JSON request logs) going to `logFile` when given.
 * Whatever fails, what was made is removed again; `stop()` removes it too.
 */
export async function startServer({ env = {}, prepare, logFile } = {}) {
  const name = `bench_${process.pid}_${Date.now()}`;
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zbor-bench-"));
  let child;
  let sql;
  let stopped;
  let stopping = false;
  const stop = () =>
    (stopped ??= (async () => {
      stopping = true;
      try {
        if (sql) await sql.end({ timeout: 5 });
        if (child) await stopChild(child);
      } finally {
        await dropDatabase(name);
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    })());
  try {
    const port = await freePort();
    const serverEnv = {
      ...process.env,
      NODE_ENV: "production",
      MALLOC_ARENA_MAX: "2",
      MALLOC_MMAP_THRESHOLD_: "131072",
      PORT: String(port),
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      SEED_DEMO: "1",
      SESSION_SECRET: "bench-secret-bench-secret-bench-secret",
      ...env,
    };
    if (prepare) await prepare(serverEnv);
    // Started as `npm start` starts it (scripts/start.mjs), request logging
    // preload included, so its cost is measured too.
    const out = logFile ? fs.openSync(logFile, "w") : "ignore";
    child = spawn(process.execPath, ["server/index.mjs"], {
      env: serverEnv,
      stdio: ["ignore", out, "inherit"],
    });
    if (typeof out === "number") fs.closeSync(out);
    child.once("exit", (code, signal) => {
      if (!stopping) process.stderr.write(`[bench] the server exited unexpectedly (code ${code}, signal ${signal})\n`);
    });
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`server exited (code ${child.exitCode}, signal ${child.signalCode})`);
      }
      try {
        if ((await fetch(`${base}/readyz`)).ok) break;
      } catch {}
      if (i > 600) throw new Error("server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
    sql = postgres(url.toString(), { max: 2, onnotice: () => {} });
    return { base, pid: child.pid, sql, databaseName: name, dataDir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Adds articles that reuse the demo photo, up to `count` in all. */
export async function fillArticles(sql, count) {
  const [photo] =
    await sql`select image_key, image_width, image_height from articles where image_key is not null limit 1`;
  const [{ n }] = await sql`select count(*)::int as n from articles`;
  for (let i = n; i < count; i++) {
    const day = String((i % 28) + 1).padStart(2, "0");
    await sql`insert into articles (id, header, text, date, image_key, image_width, image_height)
      values (${String(1600000000000 + i)}, ${`Aktualność numer ${i + 1}`},
              ${"Treść aktualności. ".repeat(60)}, ${`2024-${String((i % 12) + 1).padStart(2, "0")}-${day}`},
              ${photo.image_key}, ${photo.image_width}, ${photo.image_height})`;
  }
}

/** VmHWM (peak) and VmRSS (now) of a process, in MB. */
export function memory(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { peakMb: kb("VmHWM") / 1024, rssMb: kb("VmRSS") / 1024 };
}

export const cookiesOf = (res) => res.headers.getSetCookie().map((line) => line.split(";")[0]);

export function csrfIn(html) {
  const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error("no csrf field in the page");
  return token;
}

/** Signs in through the login form; returns the session cookie and the form token of `formPath`. */
export async function signIn(base, email, password, formPath = "/strefapastora/artykuly/dodaj") {
  const page = await fetch(`${base}/strefapastora/logowanie`);
  const res = await fetch(`${base}/strefapastora/logowanie`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: base, Cookie: cookiesOf(page).join("; "), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf: csrfIn(await page.text()), email, password }),
  });
  if (res.status !== 302) throw new Error(`sign-in failed: ${res.status}`);
  const cookie = cookiesOf(res).join("; ");
  const form = await fetch(`${base}${formPath}`, { headers: { Cookie: cookie } });
  return { cookie, csrf: csrfIn(await form.text()) };
}

/** A phone camera's size: 4000×3000 (12 MP). */
export const PHONE_WIDTH = 4000;
export const PHONE_HEIGHT = 3000;

/**
 * A phone-like 12 MP JPEG (about 5 MB, EXIF orientation 6): a simple scene
 * with sensor noise, so it is as large and as slow to decode as a real one.
 */
export async function phoneLikeJpeg() {
  const { default: sharp } = await import("sharp");
  const [W, H] = [PHONE_WIDTH, PHONE_HEIGHT];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
  <defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#7ab"/><stop offset="1" stop-color="#ecd"/></linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#s)"/><circle cx="1200" cy="900" r="330" fill="#fd6"/>
  <path d="M0 2100 Q 1200 1350 2400 2040 T 4000 1800 V 3000 H 0 Z" fill="#486"/></svg>`;
  const scene = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  const noise = await sharp({
    create: { width: W, height: H, channels: 3, noise: { type: "gaussian", mean: 128, sigma: 16 } },
  })
    .raw()
    .toBuffer();
  for (let i = 0; i < scene.length; i++) scene[i] = Math.max(0, Math.min(255, scene[i] + noise[i] - 128));
  return sharp(scene, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 92 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}
