#!/usr/bin/env node
// `npm test`: install what is missing (dependencies; Debian's Chromium when
// running as root), type-check, build, then run every test: vitest (server
// modules and loaders against a real database) and Playwright (the built
// server in Chromium, with JavaScript on and off).
import fs from "node:fs";
import path from "node:path";
import { commandExists, ensureDependencies, freePort, root, run } from "./lib.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && commandExists("apt-get")) {
    console.log("Installing Debian's Chromium for the browser tests…");
    run("apt-get", ["update", "-qq"]);
    run("apt-get", ["install", "-y", "-qq", "chromium"], {
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
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

// Not test-results/: Playwright empties that folder when it starts.
const results = path.join(root, ".cache", "test-summary");
fs.mkdirSync(results, { recursive: true });

// CI runs every test: the ones that need PostgreSQL fail rather than skip.
if (/^(1|true)$/i.test(process.env.CI ?? "")) {
  const url = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
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

console.log("\n== Type check ==");
run("npx", ["tsc", "--noEmit"]);
console.log("\n== Lint and format (eslint, prettier; `npm run format` fixes most) ==");
run("npx", ["eslint", "."]);
run("npx", ["prettier", "--check", "--log-level", "warn", "."]);
console.log("\n== Build ==");
run("npm", ["run", "-s", "build"]);

console.log("\n== Unit and route tests (vitest) ==");
run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile=${results}/unit.json`]);

console.log("\n== Browser tests (Playwright) ==");
const port = await freePort();
run("npx", ["playwright", "test"], {
  env: { ...process.env, E2E_PORT: String(port), PLAYWRIGHT_JSON_OUTPUT_NAME: `${results}/e2e.json` },
});

const unit = JSON.parse(fs.readFileSync(`${results}/unit.json`, "utf8"));
const e2e = JSON.parse(fs.readFileSync(`${results}/e2e.json`, "utf8"));
const passed = unit.numPassedTests + e2e.stats.expected;
const failed = unit.numFailedTests + e2e.stats.unexpected + e2e.stats.flaky;
const skipped = unit.numPendingTests + unit.numTodoTests + e2e.stats.skipped;
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 ? 0 : 1);
