import { eq, sql } from "drizzle-orm";
import { publishedImages } from "~/features/seo/share-images.server";
import { VARIANT_WIDTHS } from "~/lib/image-variants";
import { type Db, withDb } from "~/services/db.server";
import { type StoredImage, ensureVariants } from "~/services/images.server";
import { logger } from "~/services/logger.server";
import { galleryDraftImages, imageBackfills } from "~/services/schema";
import { type Storage, storage } from "~/services/storage.server";

const VARIANT_BACKFILL_LOCK = 7215_2027;

/**
 * Names the backfill by the widths it makes, so that adding a width later
 * runs it again (once) for every stored photo.
 */
export const VARIANT_BACKFILL = `webp-${VARIANT_WIDTHS.join("-")}`;

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

async function allImages(tx: Tx): Promise<StoredImage[]> {
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
          made += await ensureVariants(image, store);
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
