// What a test run leaves behind when it is killed before cleaning up: the
// databases and temporary folders carry the id of the process that made
// them, so a later run removes those whose process is gone and never touches
// another run's that is still going on this machine.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";

/** The databases tests create: `<prefix>_<pid>_<Date.now()>[_<random>]` (tests/setup/database.ts, tests/e2e/server.mjs). */
const DATABASE = /^[a-z][a-z0-9]*_(\d+)_\d{13}(?:_\d+)?$/;
/** Temporary folders of test runs and e2e servers (`zbor-run-<pid>`, `zbor-e2e-<pid>-…`). */
const FOLDER = /^zbor-(?:run|e2e)-(\d+)(?:-|$)/;

export function processAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return error.code === "EPERM";
  }
  // One that has ended but is not yet reaped (a zombie, as a runner's worker
  // is for a moment after Ctrl-C) still answers: on Linux its state tells.
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.charAt(stat.lastIndexOf(")") + 2) !== "Z";
  } catch {
    return true;
  }
}

const dead = (match) => match !== null && !processAlive(Number(match[1]));

/** Drops the test databases whose process has died; quiet when no server answers. */
export async function sweepDatabases(serverUrl) {
  const admin = postgres(serverUrl, { max: 1, connect_timeout: 2, onnotice: () => {} });
  const dropped = [];
  try {
    const rows = await admin`select datname from pg_database where datname ~ '^[a-z][a-z0-9]*_[0-9]+_[0-9]{13}'`;
    for (const { datname } of rows) {
      if (!dead(DATABASE.exec(datname))) continue;
      await admin.unsafe(`drop database if exists "${datname}" with (force)`);
      dropped.push(datname);
    }
  } catch {
    // No server: nothing of ours can be on it.
  } finally {
    await admin.end({ timeout: 1 });
  }
  return dropped;
}

/** Removes the temporary folders of test runs whose process has died. */
export function sweepFolders(dir = os.tmpdir()) {
  const removed = [];
  for (const name of fs.readdirSync(dir)) {
    if (!dead(FOLDER.exec(name))) continue;
    fs.rmSync(path.join(dir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

export async function sweepLeftovers(serverUrl) {
  const databases = await sweepDatabases(serverUrl);
  const folders = sweepFolders();
  return [...databases, ...folders];
}
