import { eq, sql } from "drizzle-orm";
import { publishedImages } from "~/features/seo/share-images.server";
import pLimit from "p-limit";
import { VARIANT_WIDTHS } from "~/lib/image-variants";
import { type Db, withDb } from "~/services/db.server";
import { contentChanged } from "~/services/content-version.server";
import { type StoredImage, ensureVariants, missingWidths, offerAvif } from "~/services/images.server";
import { logger } from "~/services/logger.server";
import { galleryDraftImages, imageBackfills } from "~/services/schema";
import { type Storage, storage } from "~/services/storage.server";

const VARIANT_BACKFILL_LOCK = 7215_2027;

/**
 * Names the backfill by the widths it makes, so that adding a width later
 * runs it again (once) for every stored photo.
 */
export const VARIANT_BACKFILL = `webp-${VARIANT_WIDTHS.join("-")}`;

async function allImages(tx: Pick<Db, "select">): Promise<StoredImage[]> {
  const drafts = await tx
    .select({ key: galleryDraftImages.imageKey, width: galleryDraftImages.width, height: galleryDraftImages.height })
    .from(galleryDraftImages);
  const all = [...(await publishedImages(tx)), ...drafts];
  return [...new Map(all.map((i) => [i.key, i])).values()];
}

/**
 * Gives every stored photo the WebP widths added after it was stored (see
 * VARIANT_WIDTHS). boot() awaits it before the server takes requests, which
 * is what keeps every srcset honest: views list every width of
 * VARIANT_WIDTHS, and no request is answered until each photo has them.
 *
 * Several instances may start at once: one makes the files under an
 * advisory lock, the others wait for it and then find the row marking the
 * backfill done, as does every later start (no storage check per photo).
 * A photo that fails is logged and leaves the row unwritten, so the next
 * start tries again (making only what is still missing).
 */
export async function backfillVariants(
  store: Storage = storage(),
): Promise<{ skipped: boolean; made: number; failed: number }> {
  return withDb((db) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${VARIANT_BACKFILL_LOCK})`);
      const [done] = await tx
        .select({ name: imageBackfills.name })
        .from(imageBackfills)
        .where(eq(imageBackfills.name, VARIANT_BACKFILL));
      if (done) return { skipped: true, made: 0, failed: 0 };
      let made = 0;
      let failed = 0;
      for (const image of await allImages(tx)) {
        try {
          made += await ensureVariants(image, "webp", store);
        } catch (error) {
          failed++;
          logger.warn({ err: error, key: image.key }, "making image variants failed");
        }
      }
      if (failed === 0) await tx.insert(imageBackfills).values({ name: VARIANT_BACKFILL, doneAt: new Date() });
      if (made || failed) logger.info({ made, failed }, "image variants made for older photos");
      return { skipped: false, made, failed };
    }),
  );
}

/** Names the AVIF backfill by its widths, as VARIANT_BACKFILL does. */
export const AVIF_BACKFILL = `avif-${VARIANT_WIDTHS.join("-")}`;

type Result = { skipped: boolean; made: number; failed: number };

/** "done" once a pass has finished; otherwise the photos that lack an AVIF width. */
async function lackingAvif(store: Storage): Promise<StoredImage[] | "done"> {
  const done = await withDb((db) =>
    db.select({ name: imageBackfills.name }).from(imageBackfills).where(eq(imageBackfills.name, AVIF_BACKFILL)),
  );
  if (done.length > 0) return "done";
  const images = await withDb(allImages);
  // Existence checks only, a few at once (a request each on S3).
  const check = pLimit(8);
  const lacking = await Promise.all(
    images.map((image) => check(async () => (await missingWidths(image, "avif", store)).length > 0)),
  );
  return images.filter((_, i) => lacking[i]);
}

async function makeAvif(images: StoredImage[], store: Storage): Promise<Result> {
  let made = 0;
  let failed = 0;
  for (const image of images) {
    try {
      made += await ensureVariants(image, "avif", store);
    } catch (error) {
      failed++;
      logger.warn({ err: error, key: image.key }, "making AVIF variants failed");
    }
  }
  if (made || failed) logger.info({ made, failed }, "AVIF variants made for older photos");
  if (failed === 0) {
    await withDb((db) =>
      db.insert(imageBackfills).values({ name: AVIF_BACKFILL, doneAt: new Date() }).onConflictDoNothing(),
    );
    offerAvif(true);
    // Pages cached meanwhile, here and on other instances, are made again with AVIF.
    if (images.length > 0) await contentChanged();
  }
  return { skipped: false, made, failed };
}

/**
 * Gives every stored photo its AVIF variants, then has pages offer them.
 * Photos stored by this version have them from the start; older ones get
 * them here. Pages offer WebP alone until every photo has its AVIF files (a
 * browser that picks a file from a <source> does not fall back to the <img>
 * when that file is missing). The first pass is marked done in
 * image_backfills, so later starts check nothing. A photo that fails is
 * logged and leaves the mark unwritten: pages keep WebP and the next start
 * tries again (making only what is still missing).
 */
export async function backfillAvifVariants(store: Storage = storage()): Promise<Result> {
  const lacking = await lackingAvif(store);
  if (lacking === "done") {
    offerAvif(true);
    return { skipped: true, made: 0, failed: 0 };
  }
  return makeAvif(lacking, store);
}

/**
 * At start, before the first request: offers AVIF at once when every photo
 * has its files (a finished earlier pass, a new site, a restored backup);
 * otherwise encodes what is missing in the background, since that takes
 * some 0.1–0.7 s per width and photo (minutes for a few hundred photos),
 * and offers AVIF when done. Instances starting together each make a pass
 * over what is still missing.
 */
export async function startAvifBackfill(store: Storage = storage()): Promise<void> {
  const lacking = await lackingAvif(store);
  if (lacking === "done") {
    offerAvif(true);
    return;
  }
  if (lacking.length === 0) {
    await makeAvif([], store);
    return;
  }
  makeAvif(lacking, store).catch((error) => logger.error({ err: error }, "making AVIF variants failed"));
}
