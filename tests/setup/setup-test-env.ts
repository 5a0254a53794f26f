// Before each test file: its own empty database (a fresh Postgres database
// when a server answers, else in-memory PGlite) and its own upload folder.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, expect, vi } from "vitest";
import { TEST_SERVER_URL, createScratchDatabase, postgresAvailable, postgresRequired } from "./database";

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-test-"));
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV = "test";
process.env.SEED_DEMO = "0";
// Password hashes at a test-only cost; tests of hashing itself unset it.
process.env.ARGON2_TEST_CHEAP = "1";
delete process.env.STORAGE;
delete process.env.S3_BUCKET;

let drop: (() => Promise<void>) | undefined;
const hasPostgres = await postgresAvailable();
if (!hasPostgres && postgresRequired) {
  throw new Error(
    `CI=true: the tests need PostgreSQL at ${TEST_SERVER_URL} (TEST_DATABASE_URL), and it does not answer.`,
  );
}
if (process.env.TEST_DATABASE_FORCE_PGLITE !== "1" && hasPostgres) {
  // A copy of the migrated template (tests/setup/global-database.ts): migrating
  // each file's database anew took seconds per file.
  const scratch = await createScratchDatabase("vt", TEST_SERVER_URL, process.env.TEST_TEMPLATE_DATABASE);
  process.env.DATABASE_URL = scratch.url;
  drop = scratch.drop;
} else {
  process.env.DATABASE_URL = "memory:";
}

afterAll(async () => {
  const { closeDb } = await import("~/services/db.server");
  await closeDb();
  await drop?.();
  await fs.rm(dataDir, { recursive: true, force: true });
});

// An unexpected console.error fails the test; tests that expect one say so.
let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => {
  const calls = consoleError.mock.calls;
  const allowed = (globalThis as { __allowConsoleError?: boolean }).__allowConsoleError;
  (globalThis as { __allowConsoleError?: boolean }).__allowConsoleError = false;
  consoleError.mockRestore();
  if (!allowed) expect(calls, "console.error was called").toEqual([]);
});
