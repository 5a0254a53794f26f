// Drafts, preview and scheduled publishing, with JavaScript on and off: an
// article saved as a draft is seen only in the pastor's list and preview,
// never on the public list, its page, the feed or the sitemap; published it
// appears; scheduled a few seconds ahead it appears on /aktualnosci by itself
// (no scheduler: the page cache expires at the due moment). An album goes
// the same way from draft to published.
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, flash, signIn, test } from "./fixtures";
import { card, photo, removeTestArticles, uniqueHeader } from "./articles.helpers";
import { endsWith, fillAlbum, removeTestAlbums, slug, uniqueTitle } from "./galleries.helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test.afterEach(async ({ page, baseURL }) => {
  await removeTestArticles(page, baseURL!);
  await removeTestAlbums(page);
});

/** A moment as a datetime-local input takes it, in Warsaw time, to the second. */
function warsawWallTime(at: Date): string {
  // sv-SE writes "2026-11-24 18:00:05".
  return new Intl.DateTimeFormat("sv-SE", {
    timeZone: "Europe/Warsaw",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  })
    .format(at)
    .replace(" ", "T");
}

async function fillArticle(page: Page, header: string, publishAt = "") {
  await page.goto("/strefapastora/artykuly/dodaj");
  await page.getByLabel("Zdjęcie", { exact: true }).setInputFiles(await photo());
  await page.getByLabel("Nagłówek").fill(header);
  await page.getByLabel("Treść").fill("Treść szkicu.");
  await page.getByLabel("Data", { exact: true }).fill("2001-01-02");
  await expect(page.getByLabel("Data i godzina publikacji")).toHaveAttribute("type", "datetime-local");
  if (publishAt) await page.getByLabel("Data i godzina publikacji").fill(publishAt);
}

/** What a visitor gets: no cookies, through the page cache. */
async function publicText(request: APIRequestContext, path: string) {
  const res = await request.get(path, { maxRedirects: 0 });
  return { status: res.status(), text: await res.text(), location: res.headers()["location"] };
}

test("an article saved as a draft is only in the pastor's list and preview until it is published", async ({
  page,
  request,
}) => {
  const header = uniqueHeader("Szkic");
  await fillArticle(page, header);
  await page.getByRole("button", { name: "zapisz jako szkic" }).click();

  // Saved: the preview shows the page as visitors will see it.
  await expect(page).toHaveURL(/\/strefapastora\/artykuly\/\d+\/podglad$/);
  await expect(flash(page)).toHaveText("Zapisano szkic artykułu.");
  await expect(page.getByText("Podgląd — tak zobaczą tę stronę odwiedzający")).toBeVisible();
  await expect(page.locator(".preview-bar .publication")).toHaveText("szkic");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(header);
  const id = page.url().split("/").at(-2)!;

  await page.goto("/strefapastora/artykuly");
  await expect(card(page, header).locator(".publication")).toHaveText("szkic");
  await expect(card(page, header).getByRole("link", { name: /^podgląd/ })).toHaveAttribute(
    "href",
    `/strefapastora/artykuly/${id}/podglad`,
  );

  // Nowhere public, also for the signed-in pastor.
  for (const client of [request, page.request]) {
    expect((await publicText(client, "/aktualnosci")).text).not.toContain(header);
    const own = await publicText(client, `/aktualnosci/${id}`);
    expect(own.status).toBe(404);
    expect(own.text).toContain("nie ma takiego dokumentu");
    expect((await publicText(client, "/aktualnosci/rss.xml")).text).not.toContain(id);
    expect((await publicText(client, "/sitemap.xml")).text).not.toContain(id);
  }

  // Published from the edit form: now it is public.
  await card(page, header)
    .getByRole("link", { name: /^edytuj/ })
    .click();
  await expect(page.getByLabel("Data i godzina publikacji")).toHaveValue("");
  await page.getByRole("button", { name: "zatwierdź" }).click();
  await expect(page).toHaveURL(/\/strefapastora\/artykuly$/);
  await expect(flash(page)).toHaveText("Zapisano zmiany.");
  await expect(card(page, header).locator(".publication")).toHaveText("opublikowany");
  expect((await publicText(request, "/aktualnosci")).text).toContain(header);
  expect((await publicText(request, `/aktualnosci/${id}`)).status).toBe(200);
  expect((await publicText(request, "/aktualnosci/rss.xml")).text).toContain(id);
  expect((await publicText(request, "/sitemap.xml")).text).toContain(id);

  // 'zapisz jako szkic' on a published article takes it off the site again.
  await card(page, header)
    .getByRole("link", { name: /^edytuj/ })
    .click();
  await page.getByRole("button", { name: "zapisz jako szkic" }).click();
  await expect(page).toHaveURL(new RegExp(`/strefapastora/artykuly/${id}/podglad$`));
  expect((await publicText(request, `/aktualnosci/${id}`)).status).toBe(404);
});

test("an unreadable publication moment is refused in Polish", async ({ page }) => {
  const header = uniqueHeader("Zła data");
  await fillArticle(page, header);
  // A browser's own picker cannot send this; a hand-made form can.
  await page
    .getByLabel("Data i godzina publikacji")
    .evaluate((input: HTMLInputElement) => input.setAttribute("type", "text"));
  await page.getByLabel("Data i godzina publikacji").fill("30.02.2026 10:00");
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(page.getByRole("alert")).toContainText("Podaj poprawną datę i godzinę publikacji");
  await expect(page.getByLabel("Data i godzina publikacji")).toHaveAttribute("aria-invalid", "true");
});

test("a scheduled article appears on /aktualnosci by itself when its moment comes", async ({ page, request }) => {
  test.setTimeout(120_000);
  const header = uniqueHeader("Zaplanowany");
  // Far enough ahead to see it scheduled on a loaded machine, near enough to wait for.
  // A whole second: the field holds no milliseconds.
  const due = new Date(Math.ceil((Date.now() + 20_000) / 1000) * 1000);
  await fillArticle(page, header, warsawWallTime(due));
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(page).toHaveURL(/\/strefapastora\/artykuly$/);
  await expect(flash(page)).toHaveText("Zaplanowano publikację artykułu.");
  await expect(card(page, header).locator(".publication")).toHaveText(/^zaplanowany na \d\d\.\d\d\.\d{4}, \d\d:\d\d$/);

  // Kept by the page cache before the moment ...
  expect(Date.now()).toBeLessThan(due.getTime());
  expect((await publicText(request, "/aktualnosci")).text).not.toContain(header);
  // ... and shown after it, with nothing saved in between: the server's doing,
  // the same with JavaScript on or off, so waited for (20 s) in one project.
  if (test.info().project.name !== "js") return;
  await expect
    .poll(async () => (await publicText(request, "/aktualnosci")).text.includes(header), {
      timeout: 60_000,
      intervals: [500, 1000],
    })
    .toBe(true);
  expect(Date.now()).toBeGreaterThanOrEqual(due.getTime());
  await page.goto("/strefapastora/artykuly");
  await expect(card(page, header).locator(".publication")).toHaveText("opublikowany");
});

test("an album saved as a draft is not public until it is published", async ({ page, request }) => {
  const title = uniqueTitle("Szkic");
  await page.goto("/strefapastora/galeria/dodaj");
  await fillAlbum(page, { title, description: "Album w szkicu." });
  await expect(page.getByLabel("Data i godzina publikacji")).toHaveAttribute("type", "datetime-local");
  await page.getByRole("button", { name: "zapisz jako szkic" }).click();

  await expect(page).toHaveURL(endsWith(`/strefapastora/galeria/${slug(title)}/podglad`));
  await expect(flash(page)).toHaveText("Zapisano szkic galerii.");
  await expect(page.locator(".preview-bar .publication")).toHaveText("szkic");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);

  await page.goto("/strefapastora/galeria");
  const row = page.locator(".album-list > li").filter({ has: page.getByRole("heading", { name: title }) });
  await expect(row.locator(".publication")).toHaveText("szkic");

  for (const client of [request, page.request]) {
    expect((await publicText(client, "/galeria")).text).not.toContain(title);
    // As for an album that does not exist: back to the list.
    const own = await publicText(client, `/galeria/${slug(title)}`);
    expect(own.status).toBe(302);
    expect(own.location).toBe("/galeria");
    expect((await publicText(client, "/sitemap.xml")).text).not.toContain(slug(title));
  }

  await page.goto(`/strefapastora/galeria/edytuj/${slug(title)}`);
  await page.getByRole("button", { name: "zapisz", exact: true }).click();
  await expect(page).toHaveURL(endsWith(`/strefapastora/galeria/${slug(title)}`));
  await expect(flash(page)).toHaveText("Zapisano galerię.");
  await expect(page.locator(".publication")).toHaveText("opublikowany");
  expect((await publicText(request, "/galeria")).text).toContain(title);
  expect((await publicText(request, `/galeria/${slug(title)}`)).status).toBe(200);
});
