import { eq, isNotNull } from "drizzle-orm";
import { articles, events, galleryImages, historyPhotos, imageBackfills } from "~/services/schema";
import { type Db, withDb } from "~/services/db.server";
import { type StoredImage, ensureShareImage } from "~/services/images.server";
import { logger } from "~/services/logger.server";
import { type Storage, storage } from "~/services/storage.server";

type Reader = Pick<Db, "select">;

/**
 * Every published image: article photos, album photos, the history photos
 * and event photos (read with `db`, e.g. a transaction, or the pool).
 */
export async function publishedImages(db?: Reader): Promise<StoredImage[]> {
  if (!db) return withDb((pool) => publishedImages(pool));
  const [a, g, h, e] = await Promise.all([
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
    db
      .select({ key: events.imageKey, width: events.imageWidth, height: events.imageHeight })
      .from(events)
      .where(isNotNull(events.imageKey)),
  ]);
  const all = [...a, ...g, ...h, ...e].filter((i): i is StoredImage => Boolean(i.key && i.width && i.height));
  // An album photo may be named by several rows; one file each.
  return [...new Map(all.map((i) => [i.key, i])).values()];
}

/** The row in image_backfills that marks every older photo as having its sharing JPEG. */
export const SHARE_IMAGE_BACKFILL = "share-jpeg-1200";

/**
 * Gives every image stored before sharing JPEGs existed its own, in the
 * background after start. New photos get theirs at upload, so once a run
 * ends without a failure a row in image_backfills says so and later starts
 * skip the existence check per photo. A failure on one image is logged, the
 * rest go on, and the next start tries again. Two instances starting at once
 * may both run it; it is idempotent, so that costs only time.
 */
export async function backfillShareImages(
  store: Storage = storage(),
): Promise<{ skipped: boolean; made: number; failed: number }> {
  const done = await withDb((db) =>
    db.select({ name: imageBackfills.name }).from(imageBackfills).where(eq(imageBackfills.name, SHARE_IMAGE_BACKFILL)),
  );
  if (done.length > 0) return { skipped: true, made: 0, failed: 0 };
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
  if (failed === 0) {
    await withDb((db) =>
      db.insert(imageBackfills).values({ name: SHARE_IMAGE_BACKFILL, doneAt: new Date() }).onConflictDoNothing(),
    );
  }
  return { skipped: false, made, failed };
}
