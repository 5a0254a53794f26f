// The WebP widths added after photos were stored (360, 640 and 720) and the AVIF
// variants: made at upload, made for photos stored before them, and a
// srcset that names only files that exist.
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AVIF_BACKFILL,
  VARIANT_BACKFILL,
  backfillAvifVariants,
  backfillVariants,
  startAvifBackfill,
} from "~/features/images/variant-backfill.server";
import { VARIANT_WIDTHS, avifKey, variantKey } from "~/lib/image-variants";
import { currentContentVersion } from "~/services/content-version.server";
import { loader as articleLoader } from "~/routes/aktualnosci.$id";
import { loader as newsLoader } from "~/routes/aktualnosci._index";
import { loader as galleryLoader } from "~/routes/galeria.$slug";
import { loader as galleriesLoader } from "~/routes/galeria._index";
import { loader as aboutLoader } from "~/routes/onas._index";
import { db } from "~/services/db.server";
import { type StoredImage, offerAvif, storeImage } from "~/services/images.server";
import { imageBackfills } from "~/services/schema";
import { storage } from "~/services/storage.server";
import { insertArticle, insertGallery, insertHistoryPhoto } from "../fixtures";
import { request, resetDatabase, settle } from "../helpers";

const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#3366aa" } })
    .jpeg()
    .toBuffer();

const args = (path: string, params: Record<string, string> = {}) => ({ request: request(path), params, context: {} });

const NEW_WIDTHS = [360, 640, 720];

/** Stores a photo as the app stored it before 360, 640 and 720 px variants existed. */
async function storedTheOldWay(width: number, height: number, name: string, folder: string): Promise<StoredImage> {
  const image = await storeImage(await jpeg(width, height), name, folder);
  for (const w of NEW_WIDTHS) await storage().delete(variantKey(image.key, w));
  return image;
}

async function widthOf(key: string, format: "webp" | "heif" = "webp"): Promise<number | null> {
  const file = await storage().get(key);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const c of file.body) chunks.push(c as Buffer);
  const meta = await sharp(Buffer.concat(chunks)).metadata();
  expect(meta.format).toBe(format);
  return meta.width ?? null;
}

/** Every file a srcset names that storage does not hold. */
async function missingFromSrcSet(srcSet: string): Promise<string[]> {
  const keys = srcSet.split(", ").map((entry) => decodeURIComponent(entry.split(" ")[0].replace(/^\/pliki\//, "")));
  expect(keys.length).toBeGreaterThan(0);
  const missing: string[] = [];
  for (const key of keys) if (!(await storage().exists(key))) missing.push(key);
  return missing;
}

beforeEach(resetDatabase);
afterEach(() => offerAvif(false));

describe("WebP widths for phones", () => {
  it("are made at upload, each at its width", async () => {
    const image = await storeImage(await jpeg(3000, 2000), "nowe.jpg", "aktualnosci");
    for (const w of [360, 480, 640, 720, 960, 1600]) expect(await widthOf(variantKey(image.key, w))).toBe(w);
  });

  it("are made for photos stored before them, once, and every srcset names only stored files", async () => {
    const article = await storedTheOldWay(1600, 900, "stary.jpg", "aktualnosci");
    const album = await storedTheOldWay(800, 600, "album.jpg", "galeria");
    const history = await storedTheOldWay(1200, 900, "historia.jpg", "historia");
    const a = await insertArticle({ imageKey: article.key, imageWidth: article.width, imageHeight: article.height });
    await insertGallery({ title: "Album" }, [{ name: "a", key: album.key }]);
    await insertHistoryPhoto("h", history.key);
    for (const i of [article, album, history]) {
      for (const w of NEW_WIDTHS) expect(await storage().exists(variantKey(i.key, w))).toBe(false);
    }

    expect(await backfillVariants()).toEqual({ skipped: false, made: 9, failed: 0 });
    for (const i of [article, album, history]) {
      for (const w of NEW_WIDTHS) expect(await widthOf(variantKey(i.key, w))).toBe(w);
    }

    const news = await (await settle(() => newsLoader(args("/aktualnosci")))).json();
    const one = await (await settle(() => articleLoader(args(`/aktualnosci/${a.id}`, { id: a.id })))).json();
    const albums = await (await settle(() => galleriesLoader())).json();
    const albumPage = await (await settle(() => galleryLoader(args("/galeria/Album")))).json();
    const about = await (await settle(() => aboutLoader())).json();
    const srcSets: string[] = [
      news.articles[0].image.srcSet,
      one.article.image.srcSet,
      albums.galleries[0].cover.srcSet,
      albumPage.gallery.images[0].srcSet,
      about.photos[0].srcSet,
    ];
    expect(srcSets[0]).toContain("-360.webp 360w");
    expect(srcSets[0]).toContain("-640.webp 640w");
    expect(srcSets[0]).toContain("-720.webp 720w");
    for (const srcSet of srcSets) expect(await missingFromSrcSet(srcSet)).toEqual([]);

    // Done once: later starts find the mark and check no file.
    expect(await (await db()).select().from(imageBackfills)).toMatchObject([{ name: VARIANT_BACKFILL }]);
    await storage().delete(variantKey(article.key, 360));
    expect(await backfillVariants()).toEqual({ skipped: true, made: 0, failed: 0 });
    expect(await storage().exists(variantKey(article.key, 360))).toBe(false);
  });

  it("is made by one of several instances starting together", async () => {
    const image = await storedTheOldWay(1000, 800, "razem.jpg", "aktualnosci");
    await insertArticle({ imageKey: image.key, imageWidth: image.width, imageHeight: image.height });
    const runs = await Promise.all([backfillVariants(), backfillVariants(), backfillVariants()]);
    expect(runs.filter((r) => !r.skipped)).toEqual([{ skipped: false, made: 3, failed: 0 }]);
    expect(runs.filter((r) => r.skipped)).toHaveLength(2);
  });

  it("skips a photo whose large file is gone and marks the work done", async () => {
    await insertArticle({ imageKey: "aktualnosci/nie-ma.jpg", imageWidth: 2000, imageHeight: 1000 });
    expect(await backfillVariants()).toEqual({ skipped: false, made: 0, failed: 0 });
    expect(await backfillVariants()).toEqual({ skipped: true, made: 0, failed: 0 });
  });
});

/** Stores a photo as the app stored it before AVIF variants existed. */
async function storedBeforeAvif(width: number, height: number, name: string, folder: string): Promise<StoredImage> {
  const image = await storeImage(await jpeg(width, height), name, folder);
  for (const w of VARIANT_WIDTHS) await storage().delete(avifKey(image.key, Math.min(w, width)));
  return image;
}

async function publicSrcSets(articleId: string) {
  const news = await (await settle(() => newsLoader(args("/aktualnosci")))).json();
  const one = await (await settle(() => articleLoader(args(`/aktualnosci/${articleId}`, { id: articleId })))).json();
  const albumPage = await (await settle(() => galleryLoader(args("/galeria/Album")))).json();
  const about = await (await settle(() => aboutLoader())).json();
  return [news.articles[0].image, one.article.image, albumPage.gallery.images[0], about.photos[0]] as {
    avifSrcSet: string;
  }[];
}

describe("AVIF variants", () => {
  it("are offered only after every photo stored before them has them, and then in every srcset", async () => {
    const article = await storedBeforeAvif(1600, 900, "stary.jpg", "aktualnosci");
    const album = await storedBeforeAvif(800, 600, "album.jpg", "galeria");
    const history = await storedBeforeAvif(1200, 900, "historia.jpg", "historia");
    const a = await insertArticle({ imageKey: article.key, imageWidth: article.width, imageHeight: article.height });
    await insertGallery({ title: "Album" }, [{ name: "a", key: album.key }]);
    await insertHistoryPhoto("h", history.key);

    // Until then, pages offer WebP alone.
    for (const view of await publicSrcSets(a.id)) expect(view.avifSrcSet).toBe("");

    const before = await currentContentVersion();
    // 1600 px: all six widths; 800 px: 360, 480, 640, 720, 800; 1200 px: 360, 480, 640, 720, 960, 1200.
    expect(await backfillAvifVariants()).toEqual({ skipped: false, made: 17, failed: 0 });
    // Cached pages are made again, now with AVIF.
    expect(await currentContentVersion()).not.toBe(before);
    expect(await widthOf(avifKey(article.key, 720), "heif")).toBe(720);
    expect(await widthOf(avifKey(album.key, 800), "heif")).toBe(800);

    const views = await publicSrcSets(a.id);
    for (const view of views) {
      expect(view.avifSrcSet).toMatch(/-360\.avif 360w/);
      expect(await missingFromSrcSet(view.avifSrcSet)).toEqual([]);
    }
    expect(await (await db()).select({ name: imageBackfills.name }).from(imageBackfills)).toContainEqual({
      name: AVIF_BACKFILL,
    });

    // A later start finds the mark: it offers AVIF at once and checks no file.
    offerAvif(false);
    await storage().delete(avifKey(article.key, 360));
    expect(await backfillAvifVariants()).toEqual({ skipped: true, made: 0, failed: 0 });
    expect(await storage().exists(avifKey(article.key, 360))).toBe(false);
    expect((await publicSrcSets(a.id))[0].avifSrcSet).toContain(".avif");
  });

  it("are not offered while a photo could not be given them, and the next start tries again", async () => {
    const good = await storedBeforeAvif(1000, 800, "dobry.jpg", "aktualnosci");
    await storage().put("aktualnosci/zepsuty.jpg", Buffer.from("to nie jest zdjęcie"), "image/jpeg");
    const a = await insertArticle({ imageKey: good.key, imageWidth: good.width, imageHeight: good.height });
    await insertArticle({
      imageKey: "aktualnosci/zepsuty.jpg",
      imageWidth: 1000,
      imageHeight: 800,
      date: "2020-01-01",
    });
    await insertGallery({ title: "Album" }, [{ name: "a", key: good.key }]);
    await insertHistoryPhoto("h", good.key);

    expect(await backfillAvifVariants()).toEqual({ skipped: false, made: 6, failed: 1 });
    for (const view of await publicSrcSets(a.id)) expect(view.avifSrcSet).toBe("");
    expect(await (await db()).select().from(imageBackfills)).not.toContainEqual(
      expect.objectContaining({ name: AVIF_BACKFILL }),
    );
  });

  it("are offered from the first request when every photo has them, else once the start has made them", async () => {
    const current = await storeImage(await jpeg(900, 600), "nowy.jpg", "aktualnosci");
    const a = await insertArticle({ imageKey: current.key, imageWidth: current.width, imageHeight: current.height });
    await insertGallery({ title: "Album" }, [{ name: "a", key: current.key }]);
    await insertHistoryPhoto("h", current.key, 0, current);
    await startAvifBackfill();
    for (const view of await publicSrcSets(a.id)) expect(view.avifSrcSet).toContain(".avif");

    await resetDatabase();
    offerAvif(false);
    const old = await storedBeforeAvif(900, 600, "stary.jpg", "aktualnosci");
    const b = await insertArticle({ imageKey: old.key, imageWidth: old.width, imageHeight: old.height });
    await insertGallery({ title: "Album" }, [{ name: "a", key: old.key }]);
    await insertHistoryPhoto("h", old.key, 0, old);
    await startAvifBackfill();
    // The start does not wait for the encoding; pages follow once it is done.
    await expect
      .poll(async () => (await publicSrcSets(b.id)).map((v) => v.avifSrcSet.includes(".avif")), { timeout: 20_000 })
      .toEqual([true, true, true, true]);
    expect(await widthOf(avifKey(old.key, 900), "heif")).toBe(900);
  });
});
