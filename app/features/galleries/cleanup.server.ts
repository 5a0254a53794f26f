// Cleanup of abandoned album drafts and of stored files that no row names
// (in any folder), at start and every hour; `npm run sweep` lists or removes
// the files on demand.
import { sql } from "drizzle-orm";
import { clock } from "~/services/clock.server";
import { galleryDrafts } from "~/services/schema";
import { rowsOf, withDb } from "~/services/db.server";
import type { StoredImage } from "~/services/images.server";
import { logger } from "~/services/logger.server";
import { type Storage, storage } from "~/services/storage.server";
import { lockGalleryFiles, unreferencedImages } from "~/features/galleries/galleries.server";
import { sweepKeptForms } from "~/features/kept-forms/kept-forms.server";

/** Drafts untouched this long are removed, with the files only they named. */
export const DRAFT_TTL_MS = 24 * 60 * 60 * 1000;
export const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;
/**
 * A file nothing names is removed once it is this old. Younger ones may be
 * an upload whose row is about to be written; a save that failed midway
 * (storage down while it wrote) leaves files that it could not remove.
 */
export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;

const SWEEP_LOCK = 7215_2026;

/** The stored image a file belongs to: `x.jpg` itself, or the large JPEG of a variant `x-480.webp` / `x-480.avif` / `x-1200.jpeg`. */
export function baseKeyOf(key: string): string | null {
  if (key.endsWith(".jpg")) return key;
  const variant = /^(.*)-\d+\.(?:webp|avif|jpeg)$/.exec(key);
  return variant ? `${variant[1]}.jpg` : null;
}

/**
 * Removes drafts untouched for `maxAgeMs`, then every stored file older than
 * `orphanMinAgeMs` that no article, album, draft, history photo or event names (the
 * photos of those drafts, leftovers of uploads interrupted midway). Safe
 * with several instances: one sweeps at a time (an advisory lock; the others
 * skip), and drafts in use are skipped (SKIP LOCKED). A file still named by
 * any row is never deleted, nor one whose name is not an image's. A dry run
 * changes nothing and lists what it would remove.
 */
export async function cleanupGalleryDrafts(
  {
    now = clock.now(),
    maxAgeMs = DRAFT_TTL_MS,
    orphanMinAgeMs = ORPHAN_MIN_AGE_MS,
    dryRun = false,
  }: { now?: Date; maxAgeMs?: number; orphanMinAgeMs?: number; dryRun?: boolean } = {},
  store: Storage = storage(),
): Promise<{ skipped: boolean; drafts: number; files: number; orphans: string[] }> {
  const draftCutoff = new Date(now.getTime() - maxAgeMs);
  const fileCutoff = new Date(now.getTime() - orphanMinAgeMs);
  const old = (await store.list("")).filter((f) => f.lastModified < fileCutoff);
  const swept = await withDb((db) =>
    db.transaction(async (tx) => {
      const [{ locked }] = await rowsOf<{ locked: boolean }>(
        tx,
        sql`select pg_try_advisory_xact_lock(${SWEEP_LOCK}) as locked`,
      );
      if (!locked) return null;
      await lockGalleryFiles(tx);
      const expired = dryRun
        ? []
        : await rowsOf<{ id: string }>(
            tx,
            sql`
              delete from ${galleryDrafts} where id in (
                select id from ${galleryDrafts} where updated_at < ${draftCutoff.toISOString()}::timestamptz
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
  if (!swept) return { skipped: true, drafts: 0, files: 0, orphans: [] };
  const orphans = old.map((f) => f.key).filter((key) => swept.unused.has(baseKeyOf(key) ?? ""));
  if (dryRun) return { skipped: false, drafts: 0, files: 0, orphans };
  // Kept forms' photos are not images by name (never orphans above); their rows' expiry removes them.
  const kept = await sweepKeptForms({ now }, store);
  let files = kept.files;
  for (const key of orphans) {
    try {
      await store.delete(key);
      files++;
    } catch (error) {
      logger.error({ err: error, key }, "removing a stored file that nothing names failed");
    }
  }
  return { skipped: false, drafts: swept.drafts, files, orphans };
}

const globalStore = globalThis as typeof globalThis & { __galleryCleanup?: NodeJS.Timeout };

/** Runs the cleanup now and every hour; the timer does not keep the process alive. */
export function scheduleGalleryCleanup(intervalMs = CLEANUP_INTERVAL_MS) {
  const run = () =>
    cleanupGalleryDrafts().then(
      (r) => {
        if (r.drafts || r.files)
          logger.info({ drafts: r.drafts, files: r.files }, "abandoned drafts and files removed");
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
