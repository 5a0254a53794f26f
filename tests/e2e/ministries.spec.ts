// 'Służby' in the pastor area, with JavaScript on and off: a ministry moved
// up with ↑ is first on /sluzby for a second browser at once, then moved back;
// a save from a second tab over a newer one is refused, its text kept.
import { expect, flash, hydrated, signIn, test } from "./fixtures";

test("a ministry moved up is shown first on /sluzby at once", async ({ page, browser, baseURL }) => {
  const visitorContext = await browser.newContext({ baseURL, javaScriptEnabled: test.info().project.name === "js" });
  const visitor = await visitorContext.newPage();
  await visitor.goto("/sluzby");
  const names = visitor.locator(".ministries > li h2");
  const [first, second] = [await names.nth(0).textContent(), await names.nth(1).textContent()];

  await signIn(page);
  await page.goto("/strefapastora/sluzby");
  await page.getByRole("button", { name: `przesuń „${second}” wyżej` }).click();
  await expect(flash(page)).toContainText(`Przesunięto służbę „${second}”`);
  await visitor.goto("/sluzby");
  await expect(names.nth(0)).toHaveText(second!);
  await expect(names.nth(1)).toHaveText(first!);

  // Back as it was, for the other specs.
  await page.getByRole("button", { name: `przesuń „${first}” wyżej` }).click();
  await expect(flash(page)).toContainText(`Przesunięto służbę „${first}”`);
  await visitor.goto("/sluzby");
  await expect(names.nth(0)).toHaveText(first!);
  await visitorContext.close();
});

test("a ministry saved in a second tab over a newer save is refused with the text kept, then saved once seen", async ({
  page,
  baseURL,
}) => {
  const conflict =
    "Ktoś zapisał tę służbę w innej karcie lub na innym urządzeniu, zanim zapisano Twoje zmiany. Nic nie zostało nadpisane.";
  await signIn(page);
  const [first, second] = [page, await page.context().newPage()];
  const last = (tab: typeof page) => tab.locator(".ministries-edit > li").last();
  const description = (tab: typeof page) => last(tab).getByLabel("Opis (opcjonalnie)");
  const save = (tab: typeof page) => last(tab).getByRole("button", { name: "zapisz", exact: true }).click();
  for (const tab of [first, second]) {
    await tab.goto("/strefapastora/sluzby");
    await hydrated(last(tab).locator("form.form"));
  }
  const before = await description(first).inputValue();
  const [mine, theirs] = [`Opis z drugiej karty ${Date.now()}.`, `Opis z pierwszej karty ${Date.now()}.`];

  await description(first).fill(theirs);
  await save(first);
  await expect(flash(first)).toContainText("Zapisano służbę");

  await description(second).fill(mine);
  await save(second);
  await expect(second.getByText(conflict)).toBeVisible();
  await expect(last(second).locator(".conflict")).toContainText("Obecna wersja różni się od Twojej: opis.");
  await expect(last(second).locator(".conflict")).toContainText(theirs);
  await expect(description(second)).toHaveValue(mine);
  const visitor = await (await page.context().browser()!.newContext({ baseURL })).newPage();
  await visitor.goto("/sluzby");
  await expect(visitor.locator(".ministries > li").last()).toContainText(theirs);

  // Seen, and saved on purpose: the pastor's text over the other tab's.
  await save(second);
  await expect(flash(second)).toContainText("Zapisano służbę");
  await expect(description(second)).toHaveValue(mine);
  await visitor.goto("/sluzby");
  await expect(visitor.locator(".ministries > li").last()).toContainText(mine);

  // Back as it was, for the other specs.
  await description(second).fill(before);
  await save(second);
  await expect(flash(second)).toContainText("Zapisano służbę");
  await visitor.context().close();
});
