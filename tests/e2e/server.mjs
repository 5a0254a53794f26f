// Starts the built server for Playwright on a database of its own: a fresh
// Postgres database when one answers at TEST_DATABASE_URL (or the local test
// server), otherwise an embedded PGlite database in a temporary folder.
// Demo content is seeded so every public page has something to show.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";

const serverUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
// The pid in the name lets a later run remove it if this one is killed (tests/setup/leftovers.mjs).
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `zbor-e2e-${process.pid}-`));
const env = {
  ...process.env,
  NODE_ENV: "production",
  PORT: process.env.E2E_PORT ?? "3999",
  DATA_DIR: dataDir,
  SEED_DEMO: "1",
  SESSION_SECRET: "e2e-session-secret-e2e-session-secret",
  ADMIN_EMAIL: "pastor@example.org",
  ADMIN_PASSWORD: "haslo-testowe-123",
  // A host other than the one tests browse (127.0.0.1), so absolute links
  // visibly come from PUBLIC_URL and not from the request.
  PUBLIC_URL: `http://localhost:${process.env.E2E_PORT ?? "3999"}`,
  // Browser tests share two cores; rendering pages nobody asked for only slows them.
  WARM_PAGES: "0",
  // No test here is about the cost of hashing (tests/unit/auth-throttle.test.ts is).
  ARGON2_TEST_CHEAP: "1",
};
delete env.DATABASE_URL;

let dropDatabase = async () => {};
const admin = postgres(serverUrl, { max: 1, connect_timeout: 2, onnotice: () => {} });
try {
  await admin`select 1`;
  const name = `e2e_${process.pid}_${Date.now()}`;
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  env.DATABASE_URL = url.toString();
  dropDatabase = async () => {
    const a = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await a.unsafe(`drop database if exists "${name}" with (force)`);
    await a.end();
  };
  console.log(`e2e: Postgres database ${name}`);
} catch (error) {
  if (/^(1|true)$/i.test(process.env.CI ?? "")) {
    console.error(`e2e: CI=true needs PostgreSQL at ${serverUrl}: ${error.message}`);
    process.exit(1);
  }
  console.log("e2e: no Postgres answered; using embedded PGlite");
} finally {
  await admin.end({ timeout: 1 });
}

const child = spawn(process.execPath, ["server/index.mjs"], {
  env,
  stdio: "inherit",
});

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  child.kill(signal);
  await new Promise((r) => child.once("exit", r));
  await dropDatabase().catch(() => {});
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGTERM"));
// Started for a Playwright run (tests/e2e/fixtures.ts): stop with it, also
// when it was killed before it could stop us.
const owner = Number(process.env.E2E_OWNER_PID);
if (owner) {
  setInterval(() => {
    try {
      process.kill(owner, 0);
    } catch (error) {
      if (error.code === "ESRCH") stop("SIGTERM");
    }
  }, 1000).unref();
}
child.on("exit", (code) => {
  if (!stopping) process.exit(code ?? 1);
});
