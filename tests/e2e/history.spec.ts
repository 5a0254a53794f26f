// The history of changes, with JavaScript on and off: reached from the panel
// home, it names who did what and when, newest first.
import { expect, flash, signInWithForm, test } from "./fixtures";
import { addArticle, card, removeTestArticles, uniqueHeader } from "./articles.helpers";
import { binRow, confirmDelete, purgeTestItems } from "./bin.helpers";

// Through the form, not the worker's kept cookies: the history must show this
// test's own sign-in, and a sign-in from many tests ago is off the first page.
test.beforeEach(async ({ page }) => {
  await signInWithForm(page);
});

test.afterEach(async ({ page, baseURL }) => {
  await removeTestArticles(page, baseURL!);
  await purgeTestItems(page);
});

test("shows the sign-in and an article added, moved to the bin and restored, newest first", async ({ page }) => {
  const header = uniqueHeader("Historia");
  await addArticle(page, { header });
  await confirmDelete(page, card(page, header).getByRole("button", { name: /^usuń/ }));
  await expect(flash(page)).toHaveText("Przeniesiono artykuł do kosza.");
  await page.goto("/strefapastora/kosz");
  await binRow(page, header)
    .getByRole("button", { name: /^przywróć/ })
    .click();
  await expect(flash(page)).toHaveText(`Przywrócono artykuł „${header}”.`);

  await page.goto("/strefapastora");
  await page.getByRole("link", { name: "historia zmian" }).click();
  await expect(page).toHaveURL(/\/strefapastora\/historia-zmian$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Historia zmian");
  await expect(page.getByRole("columnheader")).toHaveText(["Kiedy", "Kto", "Co"]);

  const ours = page.locator("table.activity tbody tr").filter({ hasText: header });
  await expect(ours.locator("td:nth-child(3)")).toHaveText([
    `przywrócono z kosza artykuł „${header}”`,
    `przeniesiono do kosza artykuł „${header}”`,
    `dodano artykuł „${header}”`,
  ]);
  await expect(ours.locator("td:nth-child(2)")).toHaveText(Array(3).fill("pastor@example.org"));
  await expect(ours.first().locator("td").first()).toHaveText(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
  // This test's own sign-in came before the article, so it is listed below it.
  const rows = await page.locator("table.activity tbody tr td:nth-child(3)").allTextContents();
  const added = rows.indexOf(`dodano artykuł „${header}”`);
  expect(rows.slice(added).some((r) => r.startsWith("zalogowano się"))).toBe(true);
});
