#!/usr/bin/env node
// `npm test`: install what is missing (dependencies; Debian's Chromium when
// running as root), type-check, build, then run every test: vitest (server
// modules and loaders against a real database) and Playwright (the built
// server in Chromium, with JavaScript on and off).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { commandExists, ensureDependencies, root } from "./lib.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && commandExists("apt-get")) {
    // apt's output goes to a log so it does not bury the test output;
    // only Chromium and what it needs, nothing else upgraded.
    const log = path.join(root, ".cache", "apt-chromium.log");
    fs.mkdirSync(path.dirname(log), { recursive: true });
    console.log(`Installing Debian's Chromium for the browser tests (log: ${path.relative(root, log)})…`);
    const fd = fs.openSync(log, "w");
    const apt = (args) =>
      spawnSync("apt-get", args, {
        stdio: ["ignore", fd, fd],
        env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      }).status;
    const ok = apt(["update"]) === 0 && apt(["install", "-y", "--no-install-recommends", "chromium"]) === 0;
    fs.closeSync(fd);
    if (!ok) {
      console.error(`Installing Chromium failed; see ${log}`);
      process.exit(1);
    }
    return;
  }
  console.error(
    `Browser tests need Chromium at ${CHROMIUM}.\n` +
      "Install it with: sudo apt-get install -y chromium (Debian/Ubuntu),\n" +
      "or set CHROMIUM_PATH to a Chromium or Chrome binary.",
  );
  process.exit(1);
}

ensureDependencies();
ensureChromium();

// Notices that are not this project's to act on, kept out of the test log:
// Remix's CLI loads Vite's CJS build, and the AWS SDK announces that its
// releases after January 2027 need Node 22 (the image runs Node 22; see the
// README's Production section). Set here, so every child process inherits them.
process.env.VITE_CJS_IGNORE_WARNING ??= "true";
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const testDatabaseServer = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
// Databases and temporary folders carry the pid of the process that made them:
// what killed runs left is removed now, and this run's is removed at its end,
// also after Ctrl-C (the signal reaches every process of the run; this one
// waits for them, then cleans up).
const { sweepLeftovers } = await import("../tests/setup/leftovers.mjs");
async function sweep() {
  const removed = await sweepLeftovers(testDatabaseServer);
  if (removed.length > 0) console.log(`Removed what test runs left behind: ${removed.join(", ")}`);
}
await sweep();
// Every temporary file of this run (servers' data folders, Chromium's
// profiles, the tests' own) goes in one folder, removed at the end.
const runTmp = path.join(os.tmpdir(), `zbor-run-${process.pid}`);
fs.mkdirSync(runTmp, { recursive: true });
let interrupted = false;
process.on("SIGINT", () => (interrupted = true));
process.on("SIGTERM", () => (interrupted = true));
process.on("exit", () => fs.rmSync(runTmp, { recursive: true, force: true }));

// Not test-results/: Playwright empties that folder when it starts.
const results = path.join(root, ".cache", "test-summary");
fs.mkdirSync(results, { recursive: true });

// CI runs every test: the ones that need PostgreSQL fail rather than skip.
if (/^(1|true)$/i.test(process.env.CI ?? "")) {
  const url = testDatabaseServer;
  const { default: postgres } = await import("postgres");
  const sql = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    await sql`select 1`;
  } catch (error) {
    console.error(`CI=true: the tests need PostgreSQL at ${url} (TEST_DATABASE_URL): ${error.message}`);
    process.exit(1);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

// Type check, lint, format check and build read the sources and none reads
// what another writes: they run side by side (each mostly on one core), each
// one's output shown whole, in this order, once it has finished.
function together(steps) {
  const color = process.stdout.isTTY ? { FORCE_COLOR: "1" } : {};
  const runs = steps.map(
    ({ cmd, args }) =>
      new Promise((resolve) => {
        const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...color } });
        const out = [];
        child.stdout.on("data", (d) => out.push(d));
        child.stderr.on("data", (d) => out.push(d));
        child.on("error", (error) => resolve({ status: 1, out: [Buffer.from(`${error.message}\n`)] }));
        child.on("close", (status) => resolve({ status, out }));
      }),
  );
  return steps.reduce(
    (failed, { title }, i) =>
      failed.then(async (sofar) => {
        const { status, out } = await runs[i];
        console.log(`\n== ${title} ==`);
        for (const chunk of out) process.stdout.write(chunk);
        return sofar || status !== 0;
      }),
    Promise.resolve(false),
  );
}
const checksFailed = await together([
  { title: "Type check", cmd: "npx", args: ["tsc", "--noEmit"] },
  { title: "Lint (eslint; `npm run format` fixes most)", cmd: "npx", args: ["eslint", "."] },
  { title: "Format (prettier)", cmd: "npx", args: ["prettier", "--check", "--log-level", "warn", "."] },
  { title: "Build", cmd: "npm", args: ["run", "-s", "build"] },
]);
if (checksFailed) process.exit(1);

// Both suites run even when the first fails, so one run reports every failure.
// A stale summary from an earlier run must not be read as this run's.
const unitJson = `${results}/unit.json`;
const e2eJson = `${results}/e2e.json`;
fs.rmSync(unitJson, { force: true });
fs.rmSync(e2eJson, { force: true });
// Ctrl-C reaches the runner and this process alike, but this one's handler
// waits for the event loop, which spawnSync holds until the runner has gone:
// a runner ended by the signal tells it first.
function step(cmd, args, env = {}) {
  const run = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, TMPDIR: runTmp, ...env } });
  if (run.signal === "SIGINT" || run.signal === "SIGTERM") interrupted = true;
  return run.status;
}
/** How many processes of this run are still going: they carry its TMPDIR (read on Linux; elsewhere none are known). */
function runProcesses() {
  if (process.platform !== "linux") return 0;
  let count = 0;
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(`TMPDIR=${runTmp}`)) count++;
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return count;
}
async function stopIfInterrupted() {
  if (!interrupted) return;
  // The signal reached the runners' workers and servers too; what they made
  // is theirs until they have gone, which takes a moment.
  const deadline = Date.now() + 15_000;
  while (runProcesses() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  await sweep();
  process.exit(130);
}

console.log("\n== Unit and route tests (vitest) ==");
const unitStatus = step("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile=${unitJson}`]);
await stopIfInterrupted();

console.log("\n== Browser tests (Playwright) ==");
// Each Playwright worker slot starts its server on a free port (tests/e2e/fixtures.ts).
const e2eStatus = step("npx", ["playwright", "test"], { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson });
await stopIfInterrupted();
await sweep();

const readJson = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : null);
const unit = readJson(unitJson);
const e2e = readJson(e2eJson);
const passed = (unit?.numPassedTests ?? 0) + (e2e?.stats.expected ?? 0);
const failed = (unit?.numFailedTests ?? 0) + (e2e ? e2e.stats.unexpected + e2e.stats.flaky : 0);
const skipped = (unit ? unit.numPendingTests + unit.numTodoTests : 0) + (e2e?.stats.skipped ?? 0);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
// A runner that crashed before writing its summary, or exited nonzero with no
// failed test (a broken setup), fails the run too.
const ok = failed === 0 && unitStatus === 0 && e2eStatus === 0 && unit !== null && e2e !== null;
if (!ok && failed === 0) console.error(`vitest exited ${unitStatus}, Playwright exited ${e2eStatus}`);
process.exit(ok ? 0 : 1);
