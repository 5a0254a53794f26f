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
    // Two files at a time: most of a file's time is spent waiting on the database and servers.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
