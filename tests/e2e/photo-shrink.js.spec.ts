// What the album editor's script does for a phone on mobile data: a big
// photo leaves the browser small (orientation applied, at most 2560 px,
// no EXIF), and a file the network loses is sent again, by itself and
// then with 'ponów'. Without JavaScript the form sends the files as chosen
// (galleries.spec.ts).
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { editorOrder, fillAlbum, photo, removeTestAlbums, signIn, uniqueTitle } from "./galleries.helpers";
import { expect, test } from "./fixtures";

const PHOTOS = "**/strefapastora/galeria/dodaj/zdjecia";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test.afterEach(async ({ page }) => {
  await removeTestAlbums(page);
});

/** The file part of a multipart body. */
function filePart(body: Buffer): Buffer {
  const start = body.indexOf("\r\n\r\n", body.indexOf('name="zdjecia"')) + 4;
  const boundary = body.subarray(0, body.indexOf("\r\n"));
  return body.subarray(start, body.indexOf(Buffer.concat([Buffer.from("\r\n"), boundary]), start));
}

/** The bodies of the photo posts, read on their way out: only an intercepted request shows a large body whole. */
async function uploadBodies(page: Page) {
  const bodies: Buffer[] = [];
  await page.route(PHOTOS, async (route) => {
    if (route.request().method() === "POST") bodies.push(route.request().postDataBuffer()!);
    await route.continue();
  });
  return bodies;
}

test("a phone's big photo is sent turned upright, at most 2560 px and without its EXIF", async ({ page }) => {
  test.setTimeout(60_000);
  // A 12 MP camera photo lying on its side (EXIF orientation 6), with grain and a GPS-like EXIF field.
  const original = await sharp({
    create: { width: 4000, height: 3000, channels: 3, background: "#6a8" },
  })
    .composite([
      {
        input: await sharp({
          create: {
            width: 4000,
            height: 3000,
            channels: 3,
            background: "#000",
            noise: { type: "gaussian", mean: 128, sigma: 12 },
          },
        })
          .png()
          .toBuffer(),
        blend: "overlay",
      },
    ])
    .jpeg({ quality: 92 })
    .withExif({ IFD0: { Copyright: "GPS 50.0 N 20.0 E" } })
    .withMetadata({ orientation: 6 })
    .toBuffer();
  const sent = await uploadBodies(page);

  await page.goto("/strefapastora/galeria/dodaj");
  await fillAlbum(page, { title: uniqueTitle("Telefon") });
  await page
    .getByLabel("Wybierz zdjęcia")
    .setInputFiles([{ name: "IMG_1234.jpg", mimeType: "image/jpeg", buffer: original }]);
  await page.getByRole("button", { name: "dodaj zdjęcie" }).click();
  await expect(page.locator(".upload-report")).toContainText("1 z 1 zdjęcia dodano", { timeout: 30_000 });
  await expect.poll(() => editorOrder(page)).toEqual(["IMG_1234.jpg"]);

  expect(sent).toHaveLength(1);
  const part = filePart(sent[0]);
  const meta = await sharp(part).metadata();
  expect(meta.format).toBe("jpeg");
  // Upright (the orientation applied to the pixels) and scaled: 3000×4000 → 1920×2560.
  expect([meta.width, meta.height]).toEqual([1920, 2560]);
  expect(meta.orientation ?? 1).toBe(1);
  expect(meta.exif).toBeUndefined();
  expect(part.length).toBeLessThan(original.length / 2);
});

test("a photo the network loses is sent again by itself; after the last try 'ponów' sends it", async ({ page }) => {
  test.setTimeout(60_000);
  // The tries of one file that the network loses.
  let lose = { name: "", tries: 0 };
  await page.route(PHOTOS, async (route) => {
    const body = route.request().postDataBuffer();
    if (lose.tries > 0 && body?.includes(`filename="${lose.name}"`)) {
      lose.tries--;
      return route.abort("connectionreset");
    }
    return route.continue();
  });

  await page.goto("/strefapastora/galeria/dodaj");
  await fillAlbum(page, { title: uniqueTitle("Zasięg") });
  const list = page.getByRole("list", { name: "Wysyłane zdjęcia" });

  // One lost try: the second goes through without the pastor doing anything.
  lose = { name: "A.jpg", tries: 1 };
  await page.getByLabel("Wybierz zdjęcia").setInputFiles([await photo("A.jpg", 0)]);
  await page.getByRole("button", { name: "dodaj zdjęcie" }).click();
  await expect(page.locator(".upload-report")).toContainText("1 z 1 zdjęcia dodano", { timeout: 20_000 });
  await expect(list.getByRole("listitem").filter({ hasText: "A.jpg" })).toContainText("dodano");
  expect(lose.tries).toBe(0);

  // Three lost tries for B; C goes through, and the album carries on.
  lose = { name: "B.jpg", tries: 3 };
  await page.getByLabel("Wybierz zdjęcia").setInputFiles([await photo("B.jpg", 120), await photo("C.jpg", 240)]);
  await page.getByRole("button", { name: "dodaj zdjęcie" }).click();
  const retry = list.getByRole("button", { name: "ponów: B.jpg" });
  await expect(retry).toBeEnabled({ timeout: 20_000 });
  await expect(list.getByRole("listitem").filter({ hasText: "C.jpg" })).toContainText("dodano");
  await expect.poll(() => editorOrder(page)).toEqual(["A.jpg", "C.jpg"]);

  // 'ponów': B joins the album where it was chosen, before C.
  await retry.click();
  await expect(list.getByRole("listitem").filter({ hasText: "B.jpg" })).toContainText("dodano");
  await expect.poll(() => editorOrder(page)).toEqual(["A.jpg", "B.jpg", "C.jpg"]);
  await expect(page.getByRole("button", { name: "zapisz", exact: true })).toBeEnabled();
  // The order is the server's too.
  await page.reload();
  await expect.poll(() => editorOrder(page)).toEqual(["A.jpg", "B.jpg", "C.jpg"]);
});
