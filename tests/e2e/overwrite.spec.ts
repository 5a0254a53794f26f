// Two browsers edit one article, with JavaScript on and off: the later save
// is refused with what changed and the text kept, and is saved only when the
// pastor chooses to.
import { expect, flash, test } from "./fixtures";
import { addArticle, card, removeTestArticles, signIn, uniqueHeader } from "./articles.helpers";
import { createAlbum, endsWith, removeTestAlbums, slug, uniqueTitle } from "./galleries.helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test.afterEach(async ({ page, baseURL }) => {
  await removeTestArticles(page, baseURL!);
  await removeTestAlbums(page);
});

test("an article saved in another browser is never overwritten unseen", async ({ page, browser }) => {
  const header = uniqueHeader("Dwa okna");
  const id = await addArticle(page, { header, text: "Pierwsza treść." });
  const other = await browser.newContext({ javaScriptEnabled: test.info().project.name === "js" });
  const b = await other.newPage();
  try {
    await signIn(b);
    await page.goto(`/strefapastora/artykuly/edytuj/${id}`);
    await b.goto(`/strefapastora/artykuly/edytuj/${id}`);

    await page.getByLabel("Nagłówek").fill(`${header} A`);
    await page.getByRole("button", { name: "zatwierdź" }).click();
    await expect(flash(page)).toHaveText("Zapisano zmiany.");

    await b.getByLabel("Treść").fill("Treść z drugiego okna.");
    await b.getByRole("button", { name: "zatwierdź" }).click();
    await expect(b.getByRole("alert")).toHaveText(
      "Ten artykuł został zmieniony w innym oknie lub na innym urządzeniu, odkąd zacząłeś edycję. Nic nie zapisano.",
    );
    await expect(b.getByText("Obecna wersja różni się od Twojej: tytuł, treść.")).toBeVisible();
    await expect(b.locator(".conflict-current dd").first()).toHaveText(`${header} A`);
    await expect(b.getByLabel("Treść")).toHaveValue("Treść z drugiego okna.");
    await expect(b.getByRole("link", { name: "porzuć swoje zmiany i otwórz obecną wersję" })).toHaveAttribute(
      "href",
      `/strefapastora/artykuly/edytuj/${id}`,
    );

    // Nothing was saved from B yet.
    await page.goto(`/strefapastora/artykuly/${id}`);
    await expect(page.getByText("Pierwsza treść.")).toBeVisible();

    await b.getByRole("button", { name: "zapisz moją wersję" }).click();
    await expect(flash(b)).toHaveText("Zapisano zmiany.");
    // B saved on purpose: his text, over A's title as it was in his form.
    await expect(card(b, header)).toContainText("Treść z drugiego okna.");
  } finally {
    await other.close();
  }
});

test("an album renamed in another browser is never overwritten unseen", async ({ page, browser }) => {
  const title = uniqueTitle("Dwa okna");
  await createAlbum(page, title);
  const other = await browser.newContext({ javaScriptEnabled: test.info().project.name === "js" });
  const b = await other.newPage();
  try {
    await signIn(b);
    await page.goto(`/strefapastora/galeria/edytuj/${slug(title)}`);
    await b.goto(`/strefapastora/galeria/edytuj/${slug(title)}`);

    await page.getByLabel("TYTUŁ").fill(`${title} A`);
    await page.getByRole("button", { name: "zapisz", exact: true }).click();
    await expect(flash(page)).toHaveText("Zapisano galerię.");

    await b.getByLabel("TYTUŁ").fill(`${title} B`);
    await b.getByRole("button", { name: "zapisz", exact: true }).click();
    await expect(b.getByRole("alert")).toHaveText(
      "Ta galeria została zmieniona w innym oknie lub na innym urządzeniu, odkąd zacząłeś edycję. Nic nie zapisano.",
    );
    await expect(b.getByText("Obecna wersja różni się od Twojej: tytuł.")).toBeVisible();
    await expect(b.locator(".conflict-current dd").first()).toHaveText(`${title} A`);
    await expect(b.getByLabel("TYTUŁ")).toHaveValue(`${title} B`);

    await b.getByRole("button", { name: "zapisz moją wersję" }).click();
    await expect(flash(b)).toHaveText("Zapisano galerię.");
    await expect(b).toHaveURL(endsWith(`/strefapastora/galeria/${slug(`${title} B`)}`));
  } finally {
    await other.close();
  }
});
