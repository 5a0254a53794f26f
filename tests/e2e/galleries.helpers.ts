// Shared by the gallery specs. The e2e server is shared by every spec and
// holds demo albums ('Piknik zborowy 2025', 'Koncert uwielbienia') that other
// specs read: these tests create their own albums (titles starting with
// "E2E galeria"), dated long ago so they never come first on /galeria, and
// remove them afterwards.
import type { Locator, Page } from "@playwright/test";
import sharp from "sharp";
import { PASTOR, expect, signIn } from "./fixtures";
import { attrAfter, readPastorList } from "./pastor-lists.helpers";

export { PASTOR, signIn };

export const PREFIX = "E2E galeria";
export const OLD_DATE = "2001-02-03";

let counter = 0;
/** A title no other test uses. */
export function uniqueTitle(label: string) {
  return `${PREFIX} ${label} ${Date.now().toString(36)}-${++counter}`;
}

export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A small photo in its own colour; `noise` makes it heavy like a real one. */
export async function photo(
  name: string,
  hue = 200,
  { noise = false, width = 800, height = 600 } = {},
): Promise<UploadFile> {
  const image = noise
    ? sharp({
        create: { width, height, channels: 3, background: "#000", noise: { type: "gaussian", mean: 128, sigma: 80 } },
      })
    : sharp({ create: { width, height, channels: 3, background: `hsl(${hue}, 60%, 50%)` } });
  return { name, mimeType: "image/jpeg", buffer: await image.jpeg({ quality: noise ? 95 : 80 }).toBuffer() };
}

/** What an iPhone sends by default: the start of a HEIC file. */
export function heic(name = "IMG_0042.HEIC"): UploadFile {
  const head = Buffer.alloc(32);
  head.writeUInt32BE(24, 0);
  head.write("ftypheic", 4, "latin1");
  head.write("mif1heic", 16, "latin1");
  return { name, mimeType: "image/heic", buffer: Buffer.concat([head, Buffer.alloc(20_000, 3)]) };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The file name a visitor's address ends with, without the 24 random hex
 * digits a stored photo's key starts with (they make each key unguessable).
 */
export function photoName(href: string): string {
  const name = decodeURIComponent(href.split("/").pop()!);
  return /^[0-9a-f]{24}-/.test(name) ? name.slice(25) : name;
}

export const slug = (title: string) => encodeURIComponent(title);
/** A pattern matching the end of an address, exactly. */
export const endsWith = (path: string) => new RegExp(`${escape(path)}$`);

/** Rows of the editor's photo list. */
export function editorRows(page: Page): Locator {
  return page.locator(".editor-images > li");
}

/** The photo names in the editor, in order. */
export async function editorOrder(page: Page): Promise<string[]> {
  return (await page.locator(".editor-images .editor-image-name").allTextContents()).map((t) =>
    t.replace(" (okładka)", "").trim(),
  );
}

/** A button of one photo in the editor ('w górę', 'w dół', 'na okładkę', 'usuń'). */
export function photoButton(page: Page, action: string, name: string): Locator {
  // The photo's name is hidden text after the visible label.
  return page.getByRole("button", { name: new RegExp(`^${escape(action)}\\s*: ${escape(name)}$`) });
}

/** Chooses files and presses 'dodaj zdjęcie', as the pastor does; waits for the report. */
export async function addPhotos(page: Page, files: UploadFile[], report: string) {
  await page.getByLabel("Wybierz zdjęcia").setInputFiles(files);
  await page.getByRole("button", { name: "dodaj zdjęcie" }).click();
  // Each photo is resized into several sizes first: slow on shared cores.
  await expect(page.locator(".upload-report").first()).toContainText(report, { timeout: 20_000 });
}

/** Fills the album fields of the editor. */
export async function fillAlbum(
  page: Page,
  { title, description, date = OLD_DATE }: { title: string; description?: string; date?: string },
) {
  await page.getByLabel("TYTUŁ").fill(title);
  if (description !== undefined) await page.getByLabel("OPIS", { exact: true }).fill(description);
  await page.getByLabel("DATA", { exact: true }).fill(date);
}

/** Creates an album through the add page; ends on its pastor page. */
export async function createAlbum(page: Page, title: string, files: UploadFile[] = []) {
  await page.goto("/strefapastora/galeria/dodaj");
  await fillAlbum(page, { title, description: "Album z testu." });
  if (files.length) await addPhotos(page, files, `${files.length} z ${files.length}`);
  await page.getByRole("button", { name: "zapisz", exact: true }).click();
  await expect(page).toHaveURL(endsWith(`/strefapastora/galeria/${slug(title)}`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
}

/**
 * Deletes every album this suite made, straight through the delete action,
 * so that a failed test leaves nothing behind for other specs.
 */
export async function removeTestAlbums(page: Page) {
  const list = await readPastorList(page, "/strefapastora/galeria", PREFIX);
  if (!list) return; // not signed in
  for (const row of list.rows) {
    // The row's first link, 'szczegóły', is the album's pastor page, where it is deleted.
    const path = attrAfter(row, row.indexOf("<a "), "href");
    expect(path, "a test album's page").toMatch(/^\/strefapastora\/galeria\/./);
    const res = await page.request.post(path!, {
      form: { csrf: list.csrf, intent: "delete", confirmed: "1" },
      headers: { Origin: list.origin },
      maxRedirects: 0,
    });
    expect(res.status(), path!).toBe(302);
  }
}
