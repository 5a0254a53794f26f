// Shared by the benchmarks: start the built server on a fresh Postgres
// database (demo content seeded by the server), and clean up afterwards.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";

export const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export async function startServer({ env = {} } = {}) {
  const name = `bench_${process.pid}_${Date.now()}`;
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zbor-bench-"));
  const port = await freePort();
  const child = spawn(process.execPath, ["node_modules/@remix-run/serve/dist/cli.js", "build/index.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      SEED_DEMO: "1",
      SESSION_SECRET: "bench-secret-bench-secret-bench-secret",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {}
    if (i > 600) throw new Error("server did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  const sql = postgres(url.toString(), { max: 2, onnotice: () => {} });
  return {
    base,
    pid: child.pid,
    sql,
    databaseName: name,
    async stop() {
      await sql.end();
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      const a = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists "${name}" with (force)`);
      await a.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Adds articles that reuse the demo photo, up to `count` in all. */
export async function fillArticles(sql, count) {
  const [photo] = await sql`select image_key, image_width, image_height from articles where image_key is not null limit 1`;
  const [{ n }] = await sql`select count(*)::int as n from articles`;
  for (let i = n; i < count; i++) {
    const day = String((i % 28) + 1).padStart(2, "0");
    await sql`insert into articles (id, header, text, date, image_key, image_width, image_height)
      values (${String(1600000000000 + i)}, ${`Aktualność numer ${i + 1}`},
              ${"Treść aktualności. ".repeat(60)}, ${`2024-${String((i % 12) + 1).padStart(2, "0")}-${day}`},
              ${photo.image_key}, ${photo.image_width}, ${photo.image_height})`;
  }
}
