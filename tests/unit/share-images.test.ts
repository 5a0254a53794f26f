// The 1200 px JPEG social sites show for an article or album: made at
// upload, made later for photos stored before it existed, deleted with the
// rest of the photo's files.
import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import { deleteImage, shareImage, storeImage } from "~/services/images.server";
import { allKeys, shareKey } from "~/lib/image-variants";
import { backfillShareImages } from "~/features/seo/share-images.server";
import { storage } from "~/services/storage.server";
import { insertArticle, insertGallery, insertHistoryPhoto } from "../fixtures";
import { resetDatabase } from "../helpers";

const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#3366aa" } })
    .jpeg()
    .toBuffer();

async function stored(key: string) {
  const file = await storage().get(key);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const c of file.body) chunks.push(c as Buffer);
  return { contentType: file.contentType, meta: await sharp(Buffer.concat(chunks)).metadata() };
}

beforeEach(resetDatabase);

describe("sharing JPEG", () => {
  it("is made at upload, 1200 px wide, and goes with the other files", async () => {
    const image = await storeImage(await jpeg(3000, 2000), "Zbiórka.jpg", "aktualnosci");
    const key = shareKey(image.key, image.width);
    const stem = image.key.slice(0, -".jpg".length);
    expect(key).toBe(`${stem}-1200.jpeg`);
    const file = await stored(key);
    expect(file?.contentType).toBe("image/jpeg");
    expect(file?.meta).toMatchObject({ format: "jpeg", width: 1200, height: 800 });
    expect(shareImage(image)).toEqual({ url: `/pliki/${stem}-1200.jpeg`, width: 1200, height: 800 });

    await deleteImage(image);
    for (const k of allKeys(image.key, image.width)) expect(await storage().exists(k), k).toBe(false);
  });

  it("keeps a smaller photo at its own width", async () => {
    const image = await storeImage(await jpeg(800, 600), "male.png", "galeria");
    expect((await stored(shareKey(image.key, image.width)))?.meta).toMatchObject({ width: 800, height: 600 });
    expect(shareImage(image).width).toBe(800);
  });

  it("is made for photos stored before it existed, once", async () => {
    const article = await storeImage(await jpeg(1600, 900), "stary.jpg", "aktualnosci");
    const album = await storeImage(await jpeg(1000, 1000), "album.jpg", "galeria");
    const history = await storeImage(await jpeg(1300, 700), "historia.jpg", "historia");
    // As they were before: no sharing file.
    for (const i of [article, album, history]) await storage().delete(shareKey(i.key, i.width));
    await insertArticle({ imageKey: article.key, imageWidth: article.width, imageHeight: article.height });
    await insertArticle({ imageKey: null, imageWidth: null, imageHeight: null });
    await insertGallery({ title: "Album" }, [{ name: "a", key: album.key }]);
    // The fixture stores album photos as 800×600; the sharing width follows the row.
    await insertHistoryPhoto("h", history.key);

    expect(await backfillShareImages()).toEqual({ skipped: false, made: 3, failed: 0 });
    expect((await stored(shareKey(article.key, 1600)))?.meta).toMatchObject({ format: "jpeg", width: 1200 });
    expect((await stored(shareKey(album.key, 800)))?.meta).toMatchObject({ format: "jpeg", width: 800 });
    expect((await stored(shareKey(history.key, 1200)))?.meta).toMatchObject({ format: "jpeg", width: 1200 });
    // Marked done: a later start does not look at storage again, so a file
    // removed meanwhile is not made again by the backfill.
    await storage().delete(shareKey(article.key, 1600));
    expect(await backfillShareImages()).toEqual({ skipped: true, made: 0, failed: 0 });
    expect(await storage().exists(shareKey(article.key, 1600))).toBe(false);
  });

  it("runs again at the next start when a photo failed", async () => {
    const article = await storeImage(await jpeg(1600, 900), "zly.jpg", "aktualnosci");
    await storage().delete(shareKey(article.key, article.width));
    await insertArticle({ imageKey: article.key, imageWidth: article.width, imageHeight: article.height });
    // A storage that cannot write makes the one photo fail.
    const failing = { ...storage(), put: () => Promise.reject(new Error("zapis niemożliwy")) } as ReturnType<
      typeof storage
    >;
    expect(await backfillShareImages(failing)).toEqual({ skipped: false, made: 0, failed: 1 });
    expect(await backfillShareImages()).toEqual({ skipped: false, made: 1, failed: 0 });
  });

  it("skips a photo whose large file is gone", async () => {
    await insertArticle({ imageKey: "aktualnosci/nie-ma.jpg", imageWidth: 2000, imageHeight: 1000 });
    expect(await backfillShareImages()).toEqual({ skipped: false, made: 0, failed: 0 });
  });
});
