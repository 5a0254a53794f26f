// 'Dane zboru' as the pastor uses it, with JavaScript on and off: a wrong
// account number refused, a right one shown on / and /kontakt and in the QR
// code, a phone added; a second browser sees each change at once.
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { sampleFacts } from "../../app/content/church";
import { decodeQr } from "../qr";
import { expect, flash, signIn, test } from "./fixtures";

const FACTS = "/strefapastora/dane-zboru";
const OURS = "61 1090 1014 0000 0712 1981 2874";

let visitorContext: BrowserContext;
let visitor: Page;

/** A second browser, not signed in, with JavaScript as in this project. */
function anonymousContext(browser: Browser, baseURL: string) {
  return browser.newContext({ baseURL, javaScriptEnabled: test.info().project.name === "js" });
}

async function save(page: Page, fields: Record<string, string>) {
  await page.goto(FACTS);
  for (const [label, value] of Object.entries(fields)) await page.getByLabel(label).fill(value);
  await page.getByRole("button", { name: "zapisz" }).first().click();
}

test.beforeEach(async ({ page, browser, baseURL }) => {
  await signIn(page);
  visitorContext = await anonymousContext(browser, baseURL!);
  visitor = await visitorContext.newPage();
});

test.afterEach(async ({ page }) => {
  // Other specs expect the sample account (its check digits are valid).
  await save(page, { "Numer konta": sampleFacts.account });
  await expect(flash(page)).toBeVisible();
  await visitorContext.close();
});

test("the account number: a wrong check digit refused, a right one on / and /kontakt and in the QR code", async ({
  page,
}) => {
  await visitor.goto("/kontakt");
  await expect(visitor.locator(".account-number")).toHaveText(sampleFacts.account);

  await save(page, { "Numer konta": "61 1090 1014 0000 0712 1981 2875", Miejscowość: "Wieliczka " });
  await expect(page.locator("#facts-account-error")).toContainText("błędne cyfry kontrolne");
  // What was typed stays.
  await expect(page.getByLabel("Numer konta")).toHaveValue("61 1090 1014 0000 0712 1981 2875");

  await page.getByLabel("Numer konta").fill(OURS.replaceAll(" ", ""));
  await page.getByRole("button", { name: "zapisz" }).first().click();
  await expect(flash(page)).toContainText("Zapisano: Numer konta");
  await expect(page.getByLabel("Numer konta")).toHaveValue(OURS);

  for (const path of ["/kontakt", "/"]) {
    await visitor.goto(path);
    await expect(visitor.locator(".account-number")).toHaveText(OURS);
  }
  const src = (await visitor
    .getByRole("img", { name: "Kod QR z danymi przelewu na konto zboru" })
    .getAttribute("src"))!;
  const code = await visitor.request.get(src);
  expect(code.status()).toBe(200);
  expect(await decodeQr(await code.body(), 250)).toBe(
    `${sampleFacts.nip.replaceAll("-", "")}|PL|${OURS.replaceAll(" ", "")}|000000|${sampleFacts.qrRecipient}|${sampleFacts.qrTitle}|||`,
  );
});

test("a phone added is on /kontakt at once, grouped and dialled in E.164", async ({ page }) => {
  await save(page, { Telefony: "601 234 567" });
  await expect(flash(page)).toBeVisible();
  await visitor.goto("/kontakt");
  await expect(visitor.getByRole("link", { name: "+48 601 234 567" })).toHaveAttribute("href", "tel:+48601234567");
  await expect(visitor.getByRole("link", { name: "+48 12 345 67 89" })).toHaveCount(0);

  // One more line: the second number.
  await page.goto(FACTS);
  const phones = page.getByLabel("Telefony");
  await phones.fill(`${await phones.inputValue()}\n123456789`);
  await page.getByRole("button", { name: "zapisz" }).first().click();
  await expect(flash(page)).toContainText("Zapisano: Telefony");
  await visitor.goto("/kontakt");
  await expect(visitor.getByRole("link", { name: "+48 12 345 67 89" })).toHaveAttribute("href", "tel:+48123456789");
  await expect(visitor.getByRole("link", { name: "+48 601 234 567" })).toBeVisible();
});

test("a Google Calendar named in 'Dane zboru' is offered on /kalendarz and fetched only after the click", async ({
  page,
}) => {
  const src = "https://calendar.google.com/calendar/embed?src=zbor%40gmail.com&ctz=Europe%2FWarsaw";
  // Nothing leaves this machine: a request to Google is recorded and answered here.
  const google: string[] = [];
  await visitorContext.route(/^https:\/\/calendar\.google\.com\//, (route) => {
    google.push(route.request().url());
    return route.fulfill({ contentType: "text/html", body: "<title>Google</title>" });
  });
  await visitor.goto("/kalendarz");
  await expect(visitor.getByRole("link", { name: "pokaż kalendarz Google" })).toHaveCount(0);
  /** Whether Google's calendar starts below the last of the site's own (measured at one moment). */
  const googleBelow = (ours: string) =>
    visitor.evaluate((selector) => {
      const calendar = [...document.querySelectorAll(selector)].at(-1)!.getBoundingClientRect();
      return document.querySelector("#kalendarz-google iframe")!.getBoundingClientRect().top >= calendar.bottom;
    }, ours);

  await save(page, { "Kalendarz Google (opcjonalnie)": src });
  await expect(flash(page)).toContainText("Zapisano: Kalendarz Google");
  await visitor.goto("/kalendarz");
  await expect(visitor.locator(".occurrences").first()).toBeVisible();
  await expect(visitor.locator("iframe")).toHaveCount(0);
  expect(google).toEqual([]);
  await visitor.getByRole("link", { name: "pokaż kalendarz Google" }).click();
  // The same page, the site's calendar first and Google's below it.
  await expect(visitor).toHaveURL(/\/kalendarz\?google=1#kalendarz-google$/);
  await expect(visitor.getByRole("heading", { level: 1, name: "Kalendarz" })).toBeVisible();
  const frame = visitor.locator('#kalendarz-google iframe[title="Kalendarz Google"]');
  await expect(frame).toHaveAttribute("src", src);
  await expect.poll(() => google).toEqual([src]);
  expect(await googleBelow(".occurrences")).toBe(true);
  await expect(visitor.getByRole("link", { name: "pokaż kalendarz Google" })).toHaveCount(0);

  // The month view offers it too, and keeps its month; the old address leads here.
  google.length = 0;
  await visitor.goto("/kalendarz?miesiac=2026-12");
  await expect(visitor.locator("table.month")).toBeVisible();
  expect(google).toEqual([]);
  await visitor.getByRole("link", { name: "pokaż kalendarz Google" }).click();
  await expect(visitor).toHaveURL(/\/kalendarz\?miesiac=2026-12&google=1#kalendarz-google$/);
  await expect(frame).toHaveAttribute("src", src);
  expect(await googleBelow("table.month")).toBe(true);
  await expect.poll(() => google).toEqual([src]);
  const old = await visitor.request.get("/kalendarz/google", { maxRedirects: 0 });
  expect(old.status()).toBe(301);
  expect(old.headers()["location"]).toBe("/kalendarz?google=1#kalendarz-google");

  await save(page, { "Kalendarz Google (opcjonalnie)": "" });
  await expect(flash(page)).toBeVisible();
  await visitor.goto("/kalendarz");
  await expect(visitor.getByRole("link", { name: "pokaż kalendarz Google" })).toHaveCount(0);
});
