// The bin, with JavaScript on and off: a deleted article or album is gone from
// the public site at once (page, list, feed, sitemap), waits in the bin, and
// comes back at the same address; an album whose title was taken meanwhile
// comes back under another title; 'usuń na zawsze' removes an item for good.
import { expect, flash, test } from "./fixtures";
import { addArticle, card, removeTestArticles, signIn, uniqueHeader } from "./articles.helpers";
import { createAlbum, endsWith, photo, removeTestAlbums, slug, uniqueTitle } from "./galleries.helpers";
import { binRow, confirmDelete, purgeTestItems } from "./bin.helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test.afterEach(async ({ page, baseURL }) => {
  await removeTestArticles(page, baseURL!);
  await removeTestAlbums(page);
  await purgeTestItems(page);
});

test("a deleted article is missing publicly at once, waits in the bin, and is restored at the same address", async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  const header = uniqueHeader("Kosz");
  const id = await addArticle(page, { header });
  const publicPath = `/aktualnosci/${id}`;

  await page.goto("/strefapastora/artykuly");
  await confirmDelete(page, card(page, header).getByRole("button", { name: /^usuń/ }));
  await expect(flash(page)).toHaveText("Przeniesiono artykuł do kosza.");
  await expect(card(page, header)).toHaveCount(0);

  // A visitor (no session): the page, the list, the feed and the sitemap know nothing of it.
  const visitor = await browser.newPage();
  try {
    const res = await visitor.goto(publicPath);
    expect(res?.status()).toBe(404);
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("nie ma takiego dokumentu");
    await visitor.goto("/aktualnosci");
    await expect(visitor.getByRole("heading", { name: header })).toHaveCount(0);
    expect(await (await visitor.request.get("/aktualnosci/rss.xml")).text()).not.toContain(id);
    expect(await (await visitor.request.get("/sitemap.xml")).text()).not.toContain(id);

    // In the bin, reached from the list.
    await page.goto("/strefapastora/artykuly");
    await page.getByRole("link", { name: "kosz", exact: true }).click();
    await expect(page).toHaveURL(endsWith("/strefapastora/kosz"));
    const row = binRow(page, header);
    await expect(row).toContainText("artykuł · usunięto");
    await expect(row).toContainText("pastor@example.org");
    await expect(row).toContainText("usunięcie na zawsze za 30 dni");

    await row.getByRole("button", { name: /^przywróć/ }).click();
    await expect(flash(page)).toHaveText(`Przywrócono artykuł „${header}”.`);
    await expect(binRow(page, header)).toHaveCount(0);

    const back = await visitor.goto(publicPath);
    expect(back?.status()).toBe(200);
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(header);
  } finally {
    await visitor.close();
  }
});

test("an album whose title a new album took is restored under another title", async ({ page }) => {
  test.setTimeout(90_000);
  const title = uniqueTitle("Kosz");
  const renamed = `${title} (przywrócona)`;
  await createAlbum(page, title, [await photo("stare.jpg", 30)]);
  await confirmDelete(page, page.getByRole("button", { name: "usuń", exact: true }));
  await expect(flash(page)).toHaveText(`Przeniesiono galerię „${title}” do kosza.`);
  const gone = await page.goto(`/galeria/${slug(title)}`);
  expect(gone?.url()).toMatch(endsWith("/galeria"));

  // The title is free again for a new album.
  await createAlbum(page, title);

  await page.goto("/strefapastora/galeria");
  await page.getByRole("link", { name: "kosz", exact: true }).click();
  await expect(binRow(page, title)).toContainText("galeria · usunięto");
  await binRow(page, title)
    .getByRole("button", { name: /^przywróć/ })
    .click();
  const field = page.getByLabel("Nowy tytuł galerii");
  await expect(field).toHaveValue(title);
  await expect(
    page.getByText(`Jest już galeria o tytule „${title}”. Podaj inny tytuł, aby ją przywrócić.`),
  ).toBeVisible();
  await field.fill(renamed);
  await page.getByRole("button", { name: "przywróć pod nowym tytułem" }).click();
  await expect(flash(page)).toHaveText(`Przywrócono galerię „${renamed}”.`);
  await expect(binRow(page, title)).toHaveCount(0);

  // The old album, photo and all, under the new title; the new album keeps its own.
  await page.goto(`/galeria/${slug(renamed)}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(renamed);
  await expect(page.locator(".photo-grid a")).toHaveCount(1);
  await page.goto(`/galeria/${slug(title)}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page.locator(".photo-grid a")).toHaveCount(0);
});

test("'usuń na zawsze' asks, then removes the item from the bin for good", async ({ page }) => {
  const header = uniqueHeader("Na zawsze");
  await addArticle(page, { header });
  await confirmDelete(page, card(page, header).getByRole("button", { name: /^usuń/ }));
  await expect(flash(page)).toHaveText("Przeniesiono artykuł do kosza.");

  await page.goto("/strefapastora");
  await page.getByRole("link", { name: "kosz", exact: true }).click();
  await confirmDelete(
    page,
    binRow(page, header).getByRole("button", { name: /^usuń na zawsze/ }),
    "tak, usuń na zawsze",
  );
  await expect(flash(page)).toHaveText(`Usunięto na zawsze artykuł „${header}”.`);
  await expect(binRow(page, header)).toHaveCount(0);
});
