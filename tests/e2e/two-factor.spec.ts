// The pastor's second factor in the browser, with JavaScript on and off:
// turned on from the panel with the key shown on the page (the code is
// computed here from it, as an authenticator app would), then sign-in asks
// for a code after the password; a recovery code works once. The shared
// test account ends with the second factor off again, also when a step fails.
import { createHmac } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { PASTOR, expect, flash, signInWithForm as signIn, test } from "./fixtures";
import { axe } from "./axe.helpers";
// Every sign-in here goes through the form: the second factor is about signing in.

const PAGE = "/strefapastora/weryfikacja-dwuetapowa";

const PERIOD_MS = 30_000;
const stepNow = () => Math.floor(Date.now() / PERIOD_MS);

function base32Bytes(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of text) bits += alphabet.indexOf(c).toString(2).padStart(5, "0");
  return Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
}

/**
 * The code an authenticator app shows in 30-second time step `step`
 * (RFC 6238: SHA-1, six digits), for any step, so a test can take the next
 * one without waiting for it: the server accepts one step either side of now.
 */
function codeAt(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", base32Bytes(secret)).update(counter).digest();
  const at = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(at) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "wyloguj się" }).click();
  await expect(page).toHaveURL(/\/$/);
}

async function password(page: Page) {
  await page.goto("/strefapastora/logowanie");
  await page.getByLabel("Login").fill(PASTOR.email);
  await page.getByLabel("Hasło").fill(PASTOR.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByLabel("Kod weryfikacyjny")).toBeVisible();
}

async function enterCode(page: Page, code: string) {
  await page.getByLabel("Kod weryfikacyjny").fill(code);
  await page.getByRole("button", { name: "Zaloguj", exact: true }).click();
}

const javaScript = () => test.info().project.use.javaScriptEnabled !== false;

/** Serious accessibility problems of what is on screen (axe is a script: with JavaScript only; a11y.spec.ts covers the rest). */
async function accessibilityProblems(page: Page) {
  if (!javaScript()) return [];
  return axe(page);
}

// What the test learned, to turn the second factor off whatever happened.
let recoveryLeft: string[] = [];

async function turnOff(browser: Browser) {
  const context = await browser.newContext({ javaScriptEnabled: javaScript() });
  const page = await context.newPage();
  try {
    await page.goto("/strefapastora/logowanie");
    await page.getByLabel("Login").fill(PASTOR.email);
    await page.getByLabel("Hasło").fill(PASTOR.password);
    await page.getByRole("button", { name: "Login" }).click();
    const code = page.getByLabel("Kod weryfikacyjny");
    await expect(code.or(page.getByRole("button", { name: "wyloguj się" }))).toBeVisible();
    if (await code.isVisible()) {
      await enterCode(page, recoveryLeft.pop()!);
      await expect(page).toHaveURL(/\/strefapastora$/);
    }
    await page.goto(PAGE);
    const field = page.getByLabel("Kod z aplikacji lub hasło");
    if (await field.isVisible()) {
      await field.fill(PASTOR.password);
      await page.getByRole("button", { name: "wyłącz weryfikację dwuetapową" }).click();
      await expect(flash(page)).toHaveText("Wyłączono weryfikację dwuetapową.");
    }
  } finally {
    await context.close();
  }
}

test.afterEach(async ({ browser }) => {
  await turnOff(browser);
});

test("turned on with an authenticator app, then asked for at every sign-in", async ({ page }) => {
  await signIn(page);
  await expect(page.getByText("Zalecamy włączenie weryfikacji dwuetapowej")).toBeVisible();
  await page.getByRole("link", { name: "Włącz weryfikację dwuetapową" }).click();
  await expect(page).toHaveURL(new RegExp(`${PAGE}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Weryfikacja dwuetapowa" })).toBeVisible();
  await expect(page.getByText("Weryfikacja dwuetapowa jest wyłączona")).toBeVisible();

  await page.getByRole("button", { name: "włącz weryfikację dwuetapową" }).click();
  await expect(page.getByRole("img", { name: /Kod QR/ })).toBeVisible();
  const secret = (await page.locator("#totp-secret").innerText()).replace(/\s+/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);

  const right = codeAt(secret, stepNow());
  const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, "0");
  await page.getByLabel("Kod z aplikacji", { exact: true }).fill(wrong);
  await page.getByRole("button", { name: "potwierdź i włącz" }).click();
  await expect(page.getByText("Nieprawidłowy kod. Spróbuj ponownie.")).toBeVisible();

  const firstStep = stepNow();
  const first = codeAt(secret, firstStep);
  await page.getByLabel("Kod z aplikacji", { exact: true }).fill(first);
  await page.getByRole("button", { name: "potwierdź i włącz" }).click();
  await expect(page.getByText("Zapisz te kody w bezpiecznym miejscu. Każdy działa tylko raz.")).toBeVisible();
  const recovery = await page.locator(".recovery-code-list code").allInnerTexts();
  expect(recovery).toHaveLength(10);
  recoveryLeft = [...recovery];
  expect(await accessibilityProblems(page)).toEqual([]);
  await expect(page.getByText("Weryfikacja dwuetapowa jest włączona")).toBeVisible();
  // The panel no longer recommends it.
  await page.goto("/strefapastora");
  await expect(page.getByRole("link", { name: "weryfikacja dwuetapowa" })).toBeVisible();
  await expect(page.getByText("Zalecamy włączenie weryfikacji dwuetapowej")).toHaveCount(0);
  await signOut(page);

  // The password alone no longer opens the panel.
  await password(page);
  await page.goto("/strefapastora");
  await expect(page).toHaveURL(/\/strefapastora\/logowanie$/);
  await expect(page.getByLabel("Kod weryfikacyjny")).toBeVisible();
  await enterCode(page, wrong);
  await expect(page.getByRole("alert")).toHaveText("Nieprawidłowy kod weryfikacyjny.");
  expect(await accessibilityProblems(page)).toEqual([]);
  // The code that turned it on is spent (a code is never taken twice): the
  // app's next one, which the server takes a step early.
  await enterCode(page, codeAt(secret, Math.max(firstStep + 1, stepNow())));
  await expect(page).toHaveURL(/\/strefapastora$/);
  await expect(page.getByRole("heading", { level: 1, name: "Strefa pastora" })).toBeVisible();
  await signOut(page);

  // A recovery code instead of the phone, once.
  const spare = recoveryLeft.shift()!;
  await password(page);
  await enterCode(page, spare);
  await expect(page).toHaveURL(/\/strefapastora$/);
  await signOut(page);
  await password(page);
  await enterCode(page, spare);
  await expect(page.getByRole("alert")).toHaveText("Nieprawidłowy kod weryfikacyjny.");
  await enterCode(page, recoveryLeft.shift()!);
  await expect(page).toHaveURL(/\/strefapastora$/);

  // Off again with the password; the panel recommends it once more.
  await page.goto(PAGE);
  await page.getByLabel("Kod z aplikacji lub hasło").fill(PASTOR.password);
  await page.getByRole("button", { name: "wyłącz weryfikację dwuetapową" }).click();
  await expect(flash(page)).toHaveText("Wyłączono weryfikację dwuetapową.");
  await expect(page.getByText("Weryfikacja dwuetapowa jest wyłączona")).toBeVisible();
  await signOut(page);
  await signIn(page);
  await expect(page.getByText("Zalecamy włączenie weryfikacji dwuetapowej")).toBeVisible();
});
