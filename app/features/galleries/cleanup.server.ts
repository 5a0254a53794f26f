// Cleanup of abandoned drafts and of files nothing names, run hourly.
import { sql } from "drizzle-orm";
import { clock } from "~/services/clock.server";
import { galleryDrafts } from "~/services/schema";
import { rowsOf, withDb } from "~/services/db.server";
import type { StoredImage } from "~/services/images.server";
import { logger } from "~/services/logger.server";
import { type Storage, storage } from "~/services/storage.server";
import { GALLERY_FOLDER, lockGalleryFiles, unreferencedImages } from "~/features/galleries/galleries.server";

/** Drafts untouched this long are removed, with the files only they named. */
export const DRAFT_TTL_MS = 24 * 60 * 60 * 1000;
export const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;

const SWEEP_LOCK = 7215_2026;

/** The stored image a file belongs to: `x.jpg` itself, or the large JPEG of a variant `x-480.webp` / `x-1200.jpeg`. */
export function baseKeyOf(key: string): string | null {
  if (key.endsWith(".jpg")) return key;
  const variant = /^(.*)-\d+\.(?:webp|jpeg)$/.exec(key);
  return variant ? `${variant[1]}.jpg` : null;
}

/**
 * Removes drafts untouched for `maxAgeMs` and every file under galeria/
 * older than that which no album and no draft names (the photos of those
 * drafts, and leftovers of uploads interrupted midway). Safe with several
 * instances: one sweeps at a time (an advisory lock; the others skip), and
 * drafts in use are skipped (SKIP LOCKED). A file still named by any row is
 * never deleted.
 */
export async function cleanupGalleryDrafts(
  { now = clock.now(), maxAgeMs = DRAFT_TTL_MS }: { now?: Date; maxAgeMs?: number } = {},
  store: Storage = storage(),
): Promise<{ skipped: boolean; drafts: number; files: number }> {
  const cutoff = new Date(now.getTime() - maxAgeMs);
  const old = (await store.list(`${GALLERY_FOLDER}/`)).filter((f) => f.lastModified < cutoff);
  const swept = await withDb((db) =>
    db.transaction(async (tx) => {
      const [{ locked }] = await rowsOf<{ locked: boolean }>(
        tx,
        sql`select pg_try_advisory_xact_lock(${SWEEP_LOCK}) as locked`,
      );
      if (!locked) return null;
      await lockGalleryFiles(tx);
      const expired = await rowsOf<{ id: string }>(
        tx,
        sql`
          delete from ${galleryDrafts} where id in (
            select id from ${galleryDrafts} where updated_at < ${cutoff.toISOString()}::timestamptz
            for update skip locked)
          returning id`,
      );
      // Rows are gone (cascade); what they named is now checked like any old file.
      const candidates = new Map<string, StoredImage>();
      for (const file of old) {
        const base = baseKeyOf(file.key);
        if (base && !candidates.has(base)) candidates.set(base, { key: base, width: 0, height: 0 });
      }
      const unused = new Set((await unreferencedImages(tx, [...candidates.values()])).map((i) => i.key));
      return { drafts: expired.length, unused };
    }),
  );
  if (!swept) return { skipped: true, drafts: 0, files: 0 };
  let files = 0;
  for (const file of old) {
    const base = baseKeyOf(file.key);
    if (!base || !swept.unused.has(base)) continue;
    try {
      await store.delete(file.key);
      files++;
    } catch (error) {
      logger.error({ err: error, key: file.key }, "removing an abandoned gallery file failed");
    }
  }
  return { skipped: false, drafts: swept.drafts, files };
}

const globalStore = globalThis as typeof globalThis & { __galleryCleanup?: NodeJS.Timeout };

/** Runs the cleanup now and every hour; the timer does not keep the process alive. */
export function scheduleGalleryCleanup(intervalMs = CLEANUP_INTERVAL_MS) {
  const run = () =>
    cleanupGalleryDrafts().then(
      (r) => {
        if (r.drafts || r.files) logger.info(r, "abandoned gallery drafts removed");
      },
      (error) => logger.error({ err: error }, "cleaning gallery drafts failed"),
    );
  if (globalStore.__galleryCleanup) return;
  void run();
  globalStore.__galleryCleanup = setInterval(run, intervalMs);
  globalStore.__galleryCleanup.unref();
}

/** Stops the hourly cleanup (at shutdown). */
export function stopGalleryCleanup() {
  clearInterval(globalStore.__galleryCleanup);
  globalStore.__galleryCleanup = undefined;
}
