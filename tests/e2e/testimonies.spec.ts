// 'Świadectwa' in the pastor area, with JavaScript on and off: a testimony
// added as a draft is not on /onas, shown it is, moved up with ↑, edited,
// moved to the bin (its address then leads to /onas) and restored; a
// built-in one hidden and shown again. A second browser sees each at once.
import type { Page } from "@playwright/test";
import { expect, flash, signIn, test } from "./fixtures";
import { confirmDelete, purgeTestItems } from "./bin.helpers";

const row = (page: Page, title: string) =>
  page.locator(".testimonies-edit > li").filter({ has: page.getByRole("heading", { name: title }) });

/** The titles of the testimonies a visitor sees on /onas, in order. */
async function shownTitles(visitor: Page) {
  await visitor.goto("/onas");
  return visitor.locator("section[aria-labelledby=swiadectwa] .cards > li h3").allTextContents();
}

test.afterEach(async ({ page }) => {
  // What a run added (titles starting with "E2E ") goes to the bin, then for good.
  await page.goto("/strefapastora/swiadectwa");
  if (!page.url().endsWith("/strefapastora/swiadectwa")) return;
  const left = page.locator(".testimonies-edit > li").filter({ has: page.getByRole("heading", { name: /^E2E / }) });
  while ((await left.count()) > 0) {
    await confirmDelete(page, left.first().getByRole("button", { name: /^usuń/ }), "tak, do kosza");
    await expect(flash(page)).toContainText("do kosza");
  }
  await purgeTestItems(page);
  await page.goto("/strefapastora/kosz");
  await expect(page.locator(".bin-list > li").filter({ hasText: "E2E " })).toHaveCount(0);
});

test("a testimony: draft, shown, moved up, edited, binned and restored; /onas follows at once", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const visitorContext = await browser.newContext({ baseURL, javaScriptEnabled: test.info().project.name === "js" });
  const visitor = await visitorContext.newPage();
  const title = `E2E Świadectwo ${Date.now().toString(36)}`;
  const before = await shownTitles(visitor);

  await signIn(page);
  await page.getByRole("link", { name: "świadectwa", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Świadectwa");

  // Refused without text, with the title kept; then added as a draft.
  await page.getByRole("link", { name: "dodaj świadectwo" }).click();
  await page.getByLabel("Tytuł (np. imię)").fill(title);
  await page.getByLabel("Ukryte (szkic, niewidoczne na stronie)").check();
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(page.getByText("Wpisz treść świadectwa.")).toBeVisible();
  await expect(page.getByLabel("Tytuł (np. imię)")).toHaveValue(title);
  await page.getByLabel(/^Treść/).fill("Bóg mnie odnalazł.\n\nDziś służę w zborze.");
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(flash(page)).toHaveText(`Dodano świadectwo „${title}”.`);
  await expect(row(page, title)).toContainText("(ukryte)");
  expect(await shownTitles(visitor)).toEqual(before);

  // Shown: last on /onas, its page open.
  await row(page, title)
    .getByRole("button", { name: /^pokaż/ })
    .click();
  await expect(flash(page)).toContainText(`Świadectwo „${title}” jest znów widoczne`);
  expect(await shownTitles(visitor)).toEqual([...before, title]);
  await visitor.getByRole("link", { name: `czytaj więcej: ${title}` }).click();
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(title);
  const address = new URL(visitor.url()).pathname;
  expect(address).toMatch(/^\/onas\/swiadectwa\/\d+$/);

  // ↑ swaps it with the one before.
  await page.getByRole("button", { name: `przesuń „${title}” wyżej` }).click();
  await expect(flash(page)).toHaveText(`Przesunięto świadectwo „${title}”.`);
  expect(await shownTitles(visitor)).toEqual([...before.slice(0, -1), title, before.at(-1)]);

  // Edited: the visitor reads the new text.
  await row(page, title)
    .getByRole("link", { name: /^edytuj/ })
    .click();
  await page.getByLabel(/^Treść/).fill("Nowa treść świadectwa.");
  await page.getByRole("button", { name: "zapisz", exact: true }).click();
  await expect(flash(page)).toHaveText(`Zapisano świadectwo „${title}”.`);
  await visitor.goto(address);
  await expect(visitor.locator(".prose")).toHaveText("Nowa treść świadectwa.");

  // To the bin: gone from /onas, its address leads to /onas; restored from the bin.
  await confirmDelete(page, row(page, title).getByRole("button", { name: /^usuń/ }), "tak, do kosza");
  await expect(flash(page)).toHaveText(`Przeniesiono świadectwo „${title}” do kosza.`);
  expect(await shownTitles(visitor)).toEqual(before);
  await visitor.goto(address);
  await expect(visitor).toHaveURL(/\/onas$/);
  await page.goto("/strefapastora/kosz");
  const binned = page.locator(".bin-list > li").filter({ has: page.getByRole("heading", { name: title }) });
  await expect(binned).toContainText("świadectwo · usunięto");
  await binned.getByRole("button", { name: /^przywróć/ }).click();
  await expect(flash(page)).toHaveText(`Przywrócono świadectwo „${title}”.`);
  await visitor.goto(address);
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(title);
  await visitorContext.close();
});

test("a built-in testimony hidden is gone from /onas and its address at once, and comes back", async ({
  page,
  browser,
  baseURL,
}) => {
  const visitorContext = await browser.newContext({ baseURL, javaScriptEnabled: test.info().project.name === "js" });
  const visitor = await visitorContext.newPage();
  const before = await shownTitles(visitor);
  const first = before[0];

  await signIn(page);
  await page.goto("/strefapastora/swiadectwa");
  await row(page, first)
    .getByRole("button", { name: /^ukryj/ })
    .click();
  await expect(flash(page)).toHaveText(`Ukryto świadectwo „${first}”: nie widać go na stronie.`);
  expect(await shownTitles(visitor)).toEqual(before.slice(1));
  await visitor.goto("/onas/swiadectwa/1");
  await expect(visitor).toHaveURL(/\/onas$/);

  await row(page, first)
    .getByRole("button", { name: /^pokaż/ })
    .click();
  await expect(flash(page)).toContainText("jest znów widoczne");
  expect(await shownTitles(visitor)).toEqual(before);
  await visitor.goto("/onas/swiadectwa/1");
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(first);
  await visitorContext.close();
});
