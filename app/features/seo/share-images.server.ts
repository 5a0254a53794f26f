import { isNotNull } from "drizzle-orm";
import { articles, galleryImages, historyPhotos } from "~/services/schema";
import { type Db, withDb } from "~/services/db.server";
import { type StoredImage, ensureShareImage } from "~/services/images.server";
import { logger } from "~/services/logger.server";
import { type Storage, storage } from "~/services/storage.server";

type Reader = Pick<Db, "select">;

/**
 * Every published image: article photos, album photos and the history
 * photos (read with `db`, e.g. a transaction, or the pool).
 */
export async function publishedImages(db?: Reader): Promise<StoredImage[]> {
  if (!db) return withDb((pool) => publishedImages(pool));
  const [a, g, h] = await Promise.all([
    db
      .select({ key: articles.imageKey, width: articles.imageWidth, height: articles.imageHeight })
      .from(articles)
      .where(isNotNull(articles.imageKey)),
    db
      .select({ key: galleryImages.imageKey, width: galleryImages.width, height: galleryImages.height })
      .from(galleryImages),
    db
      .select({ key: historyPhotos.imageKey, width: historyPhotos.width, height: historyPhotos.height })
      .from(historyPhotos),
  ]);
  const all = [...a, ...g, ...h].filter((i): i is StoredImage => Boolean(i.key && i.width && i.height));
  // An album photo may be named by several rows; one file each.
  return [...new Map(all.map((i) => [i.key, i])).values()];
}

/**
 * Gives every image stored before sharing JPEGs existed its own. Idempotent:
 * images that have one are skipped (one existence check each), so it runs at
 * every start; a failure on one image is logged and the rest go on.
 */
export async function backfillShareImages(store: Storage = storage()): Promise<{ made: number; failed: number }> {
  let made = 0;
  let failed = 0;
  for (const image of await publishedImages()) {
    try {
      if (await ensureShareImage(image, store)) made++;
    } catch (error) {
      failed++;
      logger.warn({ err: error, key: image.key }, "making a sharing image failed");
    }
  }
  if (made || failed) logger.info({ made, failed }, "sharing images made for older photos");
  return { made, failed };
}
