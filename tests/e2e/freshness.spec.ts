// No public page is ever older than the pastor's last save: not in his own
// browser (which keeps pages it has seen), not for another visitor (served by
// the page cache), not in the lists, the feed or the sitemap. Every page is
// seen before each change, so a kept copy would show.
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { addArticle, card, photo as articlePhoto, removeTestArticles, signIn, uniqueHeader } from "./articles.helpers";
import {
  createAlbum,
  editorOrder,
  endsWith,
  photo,
  photoButton,
  photoName,
  removeTestAlbums,
  slug,
  uniqueTitle,
} from "./galleries.helpers";
import { expect, flash, test } from "./fixtures";

const withJs = () => test.info().project.name === "js";

let visitorContext: BrowserContext;
let visitor: Page;

test.beforeEach(async ({ page, browser, baseURL }) => {
  await signIn(page);
  visitorContext = await anonymousContext(browser, baseURL!);
  visitor = await visitorContext.newPage();
});

test.afterEach(async ({ page, baseURL }) => {
  await visitorContext.close();
  await removeTestArticles(page, baseURL!);
  await removeTestAlbums(page);
});

/** A second browser, not signed in, with JavaScript as in this project. */
function anonymousContext(browser: Browser, baseURL: string) {
  return browser.newContext({ baseURL, javaScriptEnabled: withJs() });
}

const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Warsaw" }).format(new Date());

/** The file name of the photo the browser shows (whichever variant it chose), once it has loaded. */
async function shownPhoto(page: Page, selector: string): Promise<string> {
  const img = page.locator(selector).first();
  await img.scrollIntoViewIfNeeded();
  await expect(img).toHaveJSProperty("complete", true);
  expect(await img.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBeGreaterThan(0);
  return photoName(await img.evaluate((i: HTMLImageElement) => i.currentSrc));
}

async function feedAndSitemap(page: Page) {
  const feed = await page.request.get("/aktualnosci/rss.xml");
  const sitemap = await page.request.get("/sitemap.xml");
  expect(feed.status()).toBe(200);
  expect(sitemap.status()).toBe(200);
  return { feed: await feed.text(), sitemap: await sitemap.text() };
}

test("an edited article shows its new text and photo at once, in the pastor's browser and another; a deleted one is gone", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const header = uniqueHeader("Świeżość");
  const id = await addArticle(page, {
    header,
    text: "Pierwsza wersja tekstu.",
    date: today(),
    image: await articlePhoto("pierwsze.jpg", { colour: "#aa3333" }),
  });
  const publicPath = `/aktualnosci/${id}`;

  // Both browsers have seen every page once.
  for (const p of [page, visitor]) {
    await p.goto(publicPath);
    await expect(p.getByRole("heading", { level: 1 })).toHaveText(header);
    await expect(p.locator(".prose")).toHaveText("Pierwsza wersja tekstu.");
    expect(await shownPhoto(p, "img.article-image")).toMatch(/^pierwsze/);
    await p.goto("/aktualnosci");
    await expect(p.getByRole("heading", { name: header })).toBeVisible();
  }
  let { feed, sitemap } = await feedAndSitemap(visitor);
  expect(feed).toContain(header);
  expect(sitemap).toContain(publicPath);

  // The pastor changes the header, the text and the photo.
  const edited = `${header} (poprawiony)`;
  await page.goto("/strefapastora/artykuly");
  await card(page, header)
    .getByRole("link", { name: /^edytuj/ })
    .click();
  await page.getByLabel("Nagłówek").fill(edited);
  await page.getByLabel("Treść").fill("Druga wersja tekstu.");
  await page.getByLabel("Zmień zdjęcie").check();
  await page.getByLabel("Nowe zdjęcie").setInputFiles(await articlePhoto("drugie.jpg", { colour: "#33aa33" }));
  await page.getByRole("button", { name: "zatwierdź" }).click();
  await expect(flash(page)).toHaveText("Zapisano zmiany.");

  for (const p of [page, visitor]) {
    await p.goto(publicPath);
    await expect(p.getByRole("heading", { level: 1 })).toHaveText(edited);
    await expect(p.locator(".prose")).toHaveText("Druga wersja tekstu.");
    expect(await shownPhoto(p, "img.article-image")).toMatch(/^drugie/);
    await p.goto("/aktualnosci");
    await expect(p.getByRole("heading", { name: edited })).toBeVisible();
    await expect(p.getByRole("heading", { name: header, exact: true })).toHaveCount(0);
  }
  ({ feed, sitemap } = await feedAndSitemap(visitor));
  expect(feed).toContain(edited);

  // The pastor deletes it.
  await page.goto("/strefapastora/artykuly");
  if (withJs()) {
    page.once("dialog", (dialog) => void dialog.accept());
    await card(page, edited).getByRole("button", { name: /^usuń/ }).click();
  } else {
    await card(page, edited).getByRole("button", { name: /^usuń/ }).click();
    await page.getByRole("button", { name: "tak, usuń" }).click();
  }
  await expect(flash(page)).toHaveText("Przeniesiono artykuł do kosza.");

  for (const p of [page, visitor]) {
    const res = await p.goto(publicPath);
    expect(res?.status()).toBe(404);
    await expect(p.getByRole("heading", { level: 1 })).toHaveText("nie ma takiego dokumentu");
    await expect(p.getByText("Druga wersja tekstu.")).toHaveCount(0);
    await p.goto("/aktualnosci");
    await expect(p.getByRole("heading", { name: edited })).toHaveCount(0);
  }
  ({ feed, sitemap } = await feedAndSitemap(visitor));
  expect(feed).not.toContain(edited);
  expect(sitemap).not.toContain(publicPath);
});

test("an album's new order, new title and deletion show at once, in the pastor's browser and another", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const title = uniqueTitle("Świeżość");
  await createAlbum(page, title, [await photo("A.jpg", 0), await photo("B.jpg", 120), await photo("C.jpg", 240)]);
  const order = (p: Page) =>
    p
      .locator(".photo-grid a")
      .evaluateAll((links) => links.map((a) => a.getAttribute("href")!))
      .then((hrefs) => hrefs.map(photoName));
  const onList = (p: Page, t: string) => p.getByRole("heading", { name: t, exact: true });

  for (const p of [page, visitor]) {
    await p.goto(`/galeria/${slug(title)}`);
    await expect(p.getByRole("heading", { level: 1 })).toHaveText(title);
    expect(await order(p)).toEqual(["A.jpg", "B.jpg", "C.jpg"]);
    await p.goto("/galeria");
    await expect(onList(p, title)).toBeVisible();
  }
  expect((await feedAndSitemap(visitor)).sitemap).toContain(`/galeria/${slug(title)}`);

  // A new cover.
  await page.goto(`/strefapastora/galeria/edytuj/${slug(title)}`);
  await photoButton(page, "na okładkę", "C.jpg").click();
  await expect.poll(() => editorOrder(page)).toEqual(["C.jpg", "A.jpg", "B.jpg"]);
  await page.getByRole("button", { name: "zapisz", exact: true }).click();
  await expect(flash(page)).toHaveText("Zapisano galerię.");

  for (const p of [page, visitor]) {
    await p.goto(`/galeria/${slug(title)}`);
    expect(await order(p)).toEqual(["C.jpg", "A.jpg", "B.jpg"]);
    await p.goto("/galeria");
    expect(await shownPhoto(p, `.cards > li:has(h2:text-is("${title}")) img.card-image`)).toMatch(/^C/);
  }

  // A new title.
  const renamed = `${title} – nowy tytuł`;
  await page.goto(`/strefapastora/galeria/edytuj/${slug(title)}`);
  await page.getByLabel("TYTUŁ").fill(renamed);
  await page.getByRole("button", { name: "zapisz", exact: true }).click();
  await expect(page).toHaveURL(endsWith(`/strefapastora/galeria/${slug(renamed)}`));

  for (const p of [page, visitor]) {
    await p.goto(`/galeria/${slug(title)}`);
    await expect(p).toHaveURL(endsWith("/galeria"));
    await expect(onList(p, renamed)).toBeVisible();
    await expect(onList(p, title)).toHaveCount(0);
    await p.goto(`/galeria/${slug(renamed)}`);
    await expect(p.getByRole("heading", { level: 1 })).toHaveText(renamed);
    expect(await order(p)).toEqual(["C.jpg", "A.jpg", "B.jpg"]);
  }
  let { sitemap } = await feedAndSitemap(visitor);
  expect(sitemap).toContain(`/galeria/${slug(renamed)}`);
  expect(sitemap).not.toContain(`/galeria/${slug(title)}<`);

  // Deleted.
  await page.goto(`/strefapastora/galeria/${slug(renamed)}`);
  if (withJs()) {
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "usuń" }).click();
  } else {
    await page.getByRole("button", { name: "usuń" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "tak, usuń" }).click();
  }
  await expect(page).toHaveURL(endsWith("/strefapastora/galeria"));

  for (const p of [page, visitor]) {
    await p.goto(`/galeria/${slug(renamed)}`);
    await expect(p).toHaveURL(endsWith("/galeria"));
    await expect(onList(p, renamed)).toHaveCount(0);
  }
  ({ sitemap } = await feedAndSitemap(visitor));
  expect(sitemap).not.toContain(`/galeria/${slug(renamed)}`);
});
