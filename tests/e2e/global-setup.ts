// Before the browser tests: remove what killed earlier runs left behind
// (their databases and temporary folders), and make the folder where each
// worker slot records its server (tests/e2e/fixtures.ts). After them: stop
// those servers; each drops its database and data folder as it stops
// (tests/e2e/server.mjs).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { processAlive, sweepLeftovers } from "../setup/leftovers.mjs";

async function stopServers(dir: string) {
  const pids = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .map((name) => (JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as { pid: number }).pid);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  }
  const deadline = Date.now() + 20_000;
  while (pids.some(processAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  fs.rmSync(dir, { recursive: true, force: true });
}

export default async function globalSetup() {
  const removed = await sweepLeftovers(process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test");
  if (removed.length > 0) console.log(`Removed what earlier test runs left: ${removed.join(", ")}`);
  // Named with this process's pid, so a later run removes it if this one is killed.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `zbor-e2e-${process.pid}-servers-`));
  process.env.E2E_SERVERS_DIR = dir;
  // The servers watch this process and stop when it is gone, however it ended.
  process.env.E2E_OWNER_PID = String(process.pid);
  return () => stopServers(dir);
}
