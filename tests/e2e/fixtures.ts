import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { type Cookie, type Locator, type Page, test as base, expect } from "@playwright/test";
import { processAlive } from "../setup/leftovers.mjs";

const listenable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });

/** E2E_PORT + the worker's slot when given and free, else any free port. */
async function portFor(slot: number): Promise<number> {
  const wanted = process.env.E2E_PORT ? Number(process.env.E2E_PORT) + slot : 0;
  if (wanted && (await listenable(wanted))) return wanted;
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function answers(url: string) {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

async function waitUntilReady(url: string, child: ChildProcess, log: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let exited: number | null | undefined;
  child.once("exit", (code) => (exited = code));
  while (Date.now() < deadline) {
    if (exited !== undefined) {
      throw new Error(`tests/e2e/server.mjs exited with code ${exited} before it was ready; see ${log}`);
    }
    if (await answers(url)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`tests/e2e/server.mjs was not ready at ${url} within ${timeoutMs / 1000} s; see ${log}`);
}

interface Started {
  pid: number;
  url: string;
}

/**
 * The server of this worker slot (tests/e2e/server.mjs: the built app on a
 * fresh database of its own), started by the slot's first worker and kept for
 * the run: a worker that replaces a failed one reuses it, as every test once
 * shared one server. Slots run side by side without seeing each other's
 * articles, page cache, second factor or sign-in limits; a slot's tests run
 * one after another. tests/e2e/global-setup.ts stops them all at the end;
 * each also stops by itself when the run's main process is gone.
 */
async function slotServer(slot: number): Promise<string> {
  const dir = process.env.E2E_SERVERS_DIR;
  if (!dir) throw new Error("E2E_SERVERS_DIR is not set: run the browser tests with `npx playwright test`");
  const record = path.join(dir, `${slot}.json`);
  if (fs.existsSync(record)) {
    const known = JSON.parse(fs.readFileSync(record, "utf8")) as Started;
    if (processAlive(known.pid) && (await answers(`${known.url}/readyz`))) return known.url;
  }
  const port = await portFor(slot);
  // Not in the worker's output: the server outlives a failed worker.
  const log = path.resolve("test-results", `e2e-server-${slot}.log`);
  fs.mkdirSync(path.dirname(log), { recursive: true });
  const out = fs.openSync(log, "a");
  const child = spawn(process.execPath, ["tests/e2e/server.mjs"], {
    env: { ...process.env, E2E_PORT: String(port) },
    stdio: ["ignore", out, out],
    detached: true,
  });
  fs.closeSync(out);
  child.unref();
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(`${url}/readyz`, child, log, 170_000);
  } catch (error) {
    child.kill("SIGTERM");
    throw error;
  }
  fs.writeFileSync(record, JSON.stringify({ pid: child.pid!, url } satisfies Started));
  return url;
}

let serverPort: string | undefined;

/**
 * The PUBLIC_URL this worker's server was given (tests/e2e/server.mjs): another
 * host than the one the browser uses, so absolute links visibly come from it.
 */
export function publicUrl() {
  if (!serverPort) throw new Error("publicUrl() is known once a test runs");
  return `http://localhost:${serverPort}`;
}

export const test = base.extend<object, { e2eServer: string }>({
  e2eServer: [
    // Playwright reads a fixture's dependencies from this pattern; this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const url = await slotServer(workerInfo.parallelIndex);
      serverPort = new URL(url).port;
      await use(url);
    },
    { scope: "worker", timeout: 180_000 },
  ],
  baseURL: async ({ e2eServer }, use) => {
    await use(e2eServer);
  },
});

export { expect };

/** The pastor account the e2e server creates (tests/e2e/server.mjs). */
export const PASTOR = { email: "pastor@example.org", password: "haslo-testowe-123" };

/**
 * The one-time message a page shows after a redirect ("Zapisano galerię.").
 * Not simply the page's status role: while the next page renders, the
 * previous one (an editor's upload report, the drag-and-drop live region)
 * may still be on screen with live regions of its own.
 */
export const flash = (page: Page) => page.locator("p.flash[role=status]");

/**
 * With JavaScript on, waits until the page's script has taken over the
 * element (a form, a button): React on hydrated pages, the album editor's or
 * the article forms' own script inside a form marked `data-enhanced`. A pastor form posts as a
 * document, so the page after it loads anew, and a click before the script
 * runs would skip it (no confirm dialog; the no-JS path instead).
 */
export async function hydrated(element: Locator) {
  if (test.info().project.name !== "js") return;
  await expect
    .poll(() =>
      element.evaluate(
        (el) =>
          Object.keys(el).some((key) => key.startsWith("__reactProps$")) || el.closest("[data-enhanced]") !== null,
      ),
    )
    .toBe(true);
}

/** Signs in through the login form, as the pastor would. */
export async function signInWithForm(page: Page) {
  await page.goto("/strefapastora/logowanie");
  await page.getByLabel("Login").fill(PASTOR.email);
  await page.getByLabel("Hasło").fill(PASTOR.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/strefapastora$/);
}

// The cookies the form left (session and device token), kept for the rest of
// this worker's tests (one worker, one server): one sign-in per worker
// instead of one per test.
let signedIn: Cookie[] | undefined;

/**
 * Opens the pastor's panel signed in: with the cookies of this worker's
 * earlier sign-in when that session still holds (a test may have signed out
 * or ended the other devices' sessions), else through the form. Tests of
 * signing in itself use the form (signInWithForm or their own steps).
 */
export async function signIn(page: Page) {
  if (signedIn) {
    await page.context().addCookies(signedIn);
    await page.goto("/strefapastora");
    if (new URL(page.url()).pathname === "/strefapastora") return;
  }
  await signInWithForm(page);
  signedIn = await page.context().cookies();
}

/** The fixed public pages (articles and albums are found from their lists). */
export const PUBLIC_PAGES = [
  "/",
  "/onas",
  "/onas/swiadectwa/1",
  "/aktualnosci",
  "/kalendarz",
  "/sluzby",
  "/kontakt",
  "/galeria",
  "/polityka-prywatnosci",
];
