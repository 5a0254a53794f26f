// What JavaScript adds to the event form, as to the article forms: a big
// photo leaves the browser shrunk (at most 2560 px, no EXIF) with a progress
// bar while the buttons wait, and a refusal is shown in place with the photo
// still chosen. Without JavaScript the form posts as it is (events-admin.spec.ts).
import sharp from "sharp";
import { expect, flash, hydrated, signIn, test } from "./fixtures";
import { removeTestEvents, row } from "./events.helpers";

const UPLOAD = "**/strefapastora/wydarzenia/dodaj/wyslij";

/** The photo's part of a multipart body. */
function imagePart(body: Buffer): Buffer {
  const start = body.indexOf("\r\n\r\n", body.indexOf('name="image"')) + 4;
  const boundary = body.subarray(0, body.indexOf("\r\n"));
  return body.subarray(start, body.indexOf(Buffer.concat([Buffer.from("\r\n"), boundary]), start));
}

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test.afterEach(async ({ page }) => {
  await removeTestEvents(page);
});

test("a big photo is sent shrunk and without EXIF, with a progress bar; a refusal keeps it chosen", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const title = `E2E Zdjęcie ${Date.now().toString(36)}`;
  // A 12 MP camera photo with an EXIF field.
  const original = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: "#6a8" } })
    .jpeg({ quality: 92 })
    .withExif({ IFD0: { Copyright: "GPS 50.0 N 20.0 E" } })
    .toBuffer();
  expect((await sharp(original).metadata()).exif).toBeDefined();

  // The bodies, read on their way out (only an intercepted request shows a large body whole);
  // a post is held while `held` is pending, so its progress bar can be seen.
  const bodies: Buffer[] = [];
  let held: Promise<void> = Promise.resolve();
  await page.route(UPLOAD, async (route) => {
    bodies.push(route.request().postDataBuffer()!);
    await held;
    await route.continue();
  });

  await page.goto("/strefapastora/wydarzenia/dodaj");
  await hydrated(page.locator("form.event-form"));
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  const image = page.getByLabel(/^Zdjęcie/);
  await image.setInputFiles([{ name: "IMG_1234.jpg", mimeType: "image/jpeg", buffer: original }]);
  await page.getByLabel("Początek: dzień").fill("2030-05-10");
  await page.getByLabel("Początek: godzina").fill("19:00");

  // No title: refused in place, no reload, the photo still chosen.
  const button = page.getByRole("button", { name: "dodaj", exact: true });
  await button.click();
  await expect(page.getByRole("alert")).toHaveText("Popraw zaznaczone pola – nic nie zostało zapisane.");
  await expect(page.getByText("Podaj tytuł wydarzenia.")).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  expect(await image.evaluate((input: HTMLInputElement) => input.files?.length)).toBe(1);
  await expect(button).toBeEnabled();

  let release!: () => void;
  held = new Promise((resolve) => (release = resolve));
  await page.getByLabel("Tytuł", { exact: true }).fill(title);
  await button.click();
  await expect(page.locator(".upload-progress progress")).toBeVisible();
  await expect(page.locator(".upload-progress")).toContainText(/Wysyłanie|Przetwarzanie zdjęcia/);
  await expect(button).toBeDisabled();
  release();
  await expect(flash(page)).toHaveText(`Dodano wydarzenie „${title}”.`, { timeout: 20_000 });
  await expect(row(page, title)).toHaveCount(1);

  // Both posts carried the photo shrunk: 4000×3000 → 2560×1920, a JPEG without EXIF.
  expect(bodies).toHaveLength(2);
  for (const body of bodies) {
    const meta = await sharp(imagePart(body)).metadata();
    expect(meta.format).toBe("jpeg");
    expect([meta.width, meta.height]).toEqual([2560, 1920]);
    expect(meta.exif).toBeUndefined();
  }
});
