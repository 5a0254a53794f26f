import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  // JSX through React's automatic runtime, as Remix compiles it.
  oxc: { jsx: { runtime: "automatic" } },
  test: {
    // Playwright specs live in tests/e2e and are run by Playwright.
    // tests/faults run the built server (npm test builds first).
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/faults/**/*.test.ts"],
    globalSetup: ["tests/setup/global-database.ts"],
    setupFiles: ["tests/setup/setup-test-env.ts"],
    pool: "forks",
    // Three files at a time on two cores: a file waits on the database, a
    // server it started or a child process for part of its time (two at a
    // time left a core idle: 356 s for the suite, 298 s with three).
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
