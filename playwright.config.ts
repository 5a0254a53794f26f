import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3999);
export const baseURL = `http://127.0.0.1:${port}`;

// Debian's Chromium; Playwright's own browser download is not available here.
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  // `npm test` sets PLAYWRIGHT_JSON_OUTPUT_NAME to add up the results.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : "list",
  use: {
    baseURL,
    browserName: "chromium",
    launchOptions: chromium,
    trace: "off",
    // Embedded maps and calendars would reach the internet; tests stay local.
    serviceWorkers: "block",
  },
  // Every spec runs with JavaScript on and off, except `*.js.spec.ts`
  // (behaviour that only scripts add) and `*.http.spec.ts` (plain HTTP).
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "no-js", use: { javaScriptEnabled: false }, testIgnore: [/\.js\.spec\.ts$/, /\.http\.spec\.ts$/] },
  ],
  webServer: {
    command: "node tests/e2e/server.mjs",
    url: `${baseURL}/readyz`,
    env: { E2E_PORT: String(port) },
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
  },
});
