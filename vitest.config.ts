import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(__dirname, "app") } },
  esbuild: { jsx: "automatic" },
  test: {
    // Playwright specs live in tests/e2e and are run by Playwright.
    // tests/faults run the built server (npm test builds first).
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/faults/**/*.test.ts"],
    globalSetup: ["tests/setup/global-database.ts"],
    setupFiles: ["tests/setup/setup-test-env.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
