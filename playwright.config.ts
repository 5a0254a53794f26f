import { defineConfig } from "@playwright/test";

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
    // Tests stay local: every other host fails to resolve (embedded maps and
    // calendars, links out). A resolver rule costs nothing per request, where
    // intercepting every request in the test runner (page.route) cost about a
    // quarter of the browser tests' CPU time.
    // Fewer processes per page: the GPU process's work (software compositing)
    // in the browser process, and a worker's pages sharing two renderers
    // rather than one each. Measured on public.spec and articles.spec, both
    // projects: 371 and 375 CPU-s before, 348 with these three.
    "--in-process-gpu",
    "--disable-site-isolation-trials",
    "--renderer-process-limit=2",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  // Each worker starts a server and database of its own (tests/e2e/fixtures.ts),
  // so two run side by side on two cores; a file's tests run in order.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  globalSetup: "tests/e2e/global-setup.ts",
  retries: 0,
  // Generous: two workers, each with a browser and a server, share two cores,
  // and a photo resized in the browser or on the server can wait its turn.
  // A passing test never waits for these.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // `npm test` sets PLAYWRIGHT_JSON_OUTPUT_NAME to add up the results.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : "list",
  use: {
    browserName: "chromium",
    launchOptions: chromium,
    trace: "off",
    serviceWorkers: "block",
  },
  // Every spec runs with JavaScript on and off, except `*.js.spec.ts`
  // (behaviour that only scripts add), `*.http.spec.ts` (plain HTTP) and
  // `*.html.spec.ts` (what the server's HTML says on public pages, where no
  // script changes it: once, without JavaScript).
  projects: [
    { name: "js", use: { javaScriptEnabled: true }, testIgnore: [/\.html\.spec\.ts$/] },
    { name: "no-js", use: { javaScriptEnabled: false }, testIgnore: [/\.js\.spec\.ts$/, /\.http\.spec\.ts$/] },
  ],
});
