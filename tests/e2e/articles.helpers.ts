// Shared by the article specs. The e2e server is shared by every spec and
// holds demo articles that other specs read: these tests only create their
// own articles (headers starting with "E2E "), and remove them afterwards.
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { PASTOR, expect, hydrated, signIn } from "./fixtures";
import { attrAfter, readPastorList } from "./pastor-lists.helpers";

export { PASTOR, signIn };

export const PREFIX = "E2E ";

let counter = 0;
/** A header no other test uses. */
export function uniqueHeader(label: string) {
  return `${PREFIX}${label} ${Date.now().toString(36)}-${++counter}`;
}

export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A photo made for the test; `noise` makes it as heavy as a real one. */
export async function photo(
  name = "zdjecie.jpg",
  { width = 1200, height = 800, colour = "#4477aa", noise = false } = {},
): Promise<UploadFile> {
  const image = noise
    ? sharp({
        create: { width, height, channels: 3, background: "#000", noise: { type: "gaussian", mean: 128, sigma: 80 } },
      })
    : sharp({ create: { width, height, channels: 3, background: colour } });
  return { name, mimeType: "image/jpeg", buffer: await image.jpeg({ quality: noise ? 98 : 80 }).toBuffer() };
}

export function textFile(name = "zdjecie.jpg"): UploadFile {
  return { name, mimeType: "image/jpeg", buffer: Buffer.from("to nie jest zdjęcie, tylko tekst\n".repeat(200)) };
}

/** The card of one article on the pastor's list. */
export function card(page: Page, header: string) {
  return page.locator(".cards > li").filter({ has: page.getByRole("heading", { name: header, exact: true }) });
}

type NewArticle = { header: string; text?: string; date?: string; image?: UploadFile };

/** Opens the add form and fills it in, not sent; an empty `text` leaves that field empty. */
export async function fillNewArticle(
  page: Page,
  { header, text = "Treść artykułu.", date = "2001-01-02", image }: NewArticle,
) {
  await page.goto("/strefapastora/artykuly/dodaj");
  await page.getByLabel("Zdjęcie", { exact: true }).setInputFiles(image ?? (await photo()));
  await page.getByLabel("Nagłówek").fill(header);
  if (text) await page.getByLabel("Treść").fill(text);
  await page.getByLabel("Data", { exact: true }).fill(date);
}

/** Adds an article through the add form, as the pastor does; returns its id. */
export async function addArticle(page: Page, article: NewArticle) {
  const { header } = article;
  await fillNewArticle(page, article);
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Dodano artykuł." })).toBeVisible();
  await expect(page).toHaveURL(/\/strefapastora\/artykuly$/);
  // The list is loaded as a document after the form: its buttons are React's once it has hydrated.
  await hydrated(card(page, header).getByRole("button", { name: /^usuń/ }));
  const href = await card(page, header)
    .getByRole("link", { name: /^pokaż/ })
    .getAttribute("href");
  return href!.split("/").pop()!;
}

/**
 * Deletes every article this suite made, straight through the delete
 * action, so that a failed test leaves nothing behind for other specs.
 */
export async function removeTestArticles(page: Page, baseURL: string) {
  const list = await readPastorList(page, "/strefapastora/artykuly", PREFIX);
  if (!list) return; // not signed in
  for (const row of list.rows) {
    // The card's delete form posts to the article's own path.
    const action = attrAfter(row, row.indexOf("<form"), "action");
    expect(action, "a test article's delete form").toMatch(/^\/strefapastora\/artykuly\/\d+$/);
    const res = await page.request.post(action!, {
      form: { csrf: list.csrf, intent: "delete", confirmed: "1" },
      headers: { Origin: baseURL },
      maxRedirects: 0,
    });
    expect(res.status(), `cleaning up ${action}`).toBe(302);
  }
}
