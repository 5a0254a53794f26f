// The bin ('kosz'): deleted articles, albums, testimonies and events wait here for 30 days, with
// their photos still stored, and can be restored exactly as they were. Purged
// for good after that (at start and on the pastor's next visit), or at once by
// 'usuń na zawsze'.
import { and, desc, eq, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { articles, events, galleries, galleryImages, testimonies } from "~/services/schema";
import { clock } from "~/services/clock.server";
import { contentChanged } from "~/services/content-version.server";
import { isUniqueViolation, withDb } from "~/services/db.server";
import type { StoredImage } from "~/services/images.server";
import { logger } from "~/services/logger.server";
import { type Storage, storage } from "~/services/storage.server";
import { type Actor, pruneActivity, recordActivity } from "~/features/activity/activity.server";
import { checkGalleryValues, normalizeTitle } from "~/features/galleries/album-values";
import { deleteImageFiles, lockGalleryFiles, unreferencedImages } from "~/features/galleries/galleries.server";
import { BIN_KEEP_DAYS, type BinKind } from "~/features/bin/bin";

const DAY_MS = 24 * 60 * 60 * 1000;
export const BIN_KEEP_MS = BIN_KEEP_DAYS * DAY_MS;

export interface BinItem {
  kind: BinKind;
  /** The article's id, or the album's id as text. */
  id: string;
  title: string;
  /** ISO time of the deletion. */
  deletedAt: string;
  deletedBy: string | null;
  /** Whole days until the purge; 0 means at the next visit. */
  daysLeft: number;
}

const daysLeft = (deletedAt: Date, now: Date) =>
  Math.max(0, Math.ceil((deletedAt.getTime() + BIN_KEEP_MS - now.getTime()) / DAY_MS));

/** Everything in the bin, the latest deletion first. */
export async function listBin({ now = clock.now() }: { now?: Date } = {}): Promise<BinItem[]> {
  const [a, g, t, e] = await withDb((db) =>
    Promise.all([
      db
        .select({ id: articles.id, title: articles.header, deletedAt: articles.deletedAt, by: articles.deletedBy })
        .from(articles)
        .where(isNotNull(articles.deletedAt))
        .orderBy(desc(articles.deletedAt)),
      db
        .select({ id: galleries.id, title: galleries.title, deletedAt: galleries.deletedAt, by: galleries.deletedBy })
        .from(galleries)
        .where(isNotNull(galleries.deletedAt))
        .orderBy(desc(galleries.deletedAt)),
      db
        .select({
          id: testimonies.id,
          title: testimonies.title,
          deletedAt: testimonies.deletedAt,
          by: testimonies.deletedBy,
        })
        .from(testimonies)
        .where(isNotNull(testimonies.deletedAt)),
      db
        .select({ id: events.id, title: events.title, deletedAt: events.deletedAt, by: events.deletedBy })
        .from(events)
        .where(isNotNull(events.deletedAt)),
    ]),
  );
  const items = [
    ...a.map((r) => ({ kind: "article" as const, ...r, id: r.id })),
    ...g.map((r) => ({ kind: "gallery" as const, ...r, id: String(r.id) })),
    ...t.map((r) => ({ kind: "testimony" as const, ...r, id: String(r.id) })),
    ...e.map((r) => ({ kind: "event" as const, ...r, id: String(r.id) })),
  ];
  return items
    .sort((x, y) => y.deletedAt!.getTime() - x.deletedAt!.getTime())
    .map((r) => ({
      kind: r.kind,
      id: r.id,
      title: r.title,
      deletedAt: r.deletedAt!.toISOString(),
      deletedBy: r.by,
      daysLeft: daysLeft(r.deletedAt!, now),
    }));
}

/**
 * 'usuń' of an event or a testimony: to the bin (off every page at once,
 * restorable for 30 days), with its history entry, in one transaction; then
 * the content version. The row's title, or null when no such row is outside
 * the bin.
 */
export async function moveToBin(
  kind: Extract<BinKind, "event" | "testimony">,
  id: number,
  { actor }: { actor: Actor },
): Promise<string | null> {
  const table = kind === "event" ? events : testimonies;
  const title = await withDb((db) =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .update(table)
        .set({ deletedAt: clock.now(), deletedBy: actor?.email ?? null })
        .where(and(eq(table.id, id), isNull(table.deletedAt)))
        .returning({ title: table.title });
      if (row) await recordActivity(tx, { actor, action: "binned", subject: { kind, id, title: row.title } });
      return row?.title ?? null;
    }),
  );
  if (title !== null) await contentChanged();
  return title;
}

export type RestoreResult =
  | { ok: true; title: string }
  | { ok: false; reason: "gone" }
  /** An album outside the bin has the title: another is needed. `error` when the one given is not a valid title. */
  | { ok: false; reason: "titleTaken"; title: string; error?: string };

const rowId = (id: string) => (/^[1-9][0-9]{0,9}$/.test(id) && Number(id) < 2 ** 31 ? Number(id) : null);

/** Takes an article out of the bin: same id, same address, as it was. */
export async function restoreArticle({ id, actor = null }: { id: string; actor?: Actor }): Promise<RestoreResult> {
  const row = await withDb((db) =>
    db.transaction(async (tx) => {
      const [restored] = await tx
        .update(articles)
        .set({ deletedAt: null, deletedBy: null })
        .where(and(eq(articles.id, id), isNotNull(articles.deletedAt)))
        .returning({ header: articles.header });
      if (restored) {
        await recordActivity(tx, {
          actor,
          action: "restored",
          subject: { kind: "article", id, title: restored.header },
        });
      }
      return restored;
    }),
  );
  if (!row) return { ok: false, reason: "gone" };
  await contentChanged();
  return { ok: true, title: row.header };
}

/**
 * Takes a testimony out of the bin: same id and address, at the end of the
 * list (its old place may have been taken), hidden or not as it was.
 */
export async function restoreTestimony({ id, actor = null }: { id: string; actor?: Actor }): Promise<RestoreResult> {
  const tid = rowId(id);
  if (tid === null) return { ok: false, reason: "gone" };
  const row = await withDb((db) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`lock table ${testimonies} in share row exclusive mode`);
      const [restored] = await tx
        .update(testimonies)
        .set({
          deletedAt: null,
          deletedBy: null,
          position: sql`(select coalesce(max(position) + 1, 0) from ${testimonies} where deleted_at is null)`,
        })
        .where(and(eq(testimonies.id, tid), isNotNull(testimonies.deletedAt)))
        .returning({ title: testimonies.title });
      if (restored) {
        await recordActivity(tx, {
          actor,
          action: "restored",
          subject: { kind: "testimony", id, title: restored.title },
        });
      }
      return restored;
    }),
  );
  if (!row) return { ok: false, reason: "gone" };
  await contentChanged();
  return { ok: true, title: row.title };
}

/** Takes an event out of the bin: same id, address and exceptions; a subscribed calendar gets it again. */
export async function restoreEvent({ id, actor = null }: { id: string; actor?: Actor }): Promise<RestoreResult> {
  const eid = rowId(id);
  if (eid === null) return { ok: false, reason: "gone" };
  const row = await withDb((db) =>
    db.transaction(async (tx) => {
      const [restored] = await tx
        .update(events)
        .set({ deletedAt: null, deletedBy: null, sequence: sql`${events.sequence} + 1`, updatedAt: clock.now() })
        .where(and(eq(events.id, eid), isNotNull(events.deletedAt)))
        .returning({ title: events.title });
      if (restored) {
        await recordActivity(tx, { actor, action: "restored", subject: { kind: "event", id, title: restored.title } });
      }
      return restored;
    }),
  );
  if (!row) return { ok: false, reason: "gone" };
  await contentChanged();
  return { ok: true, title: row.title };
}

class TitleTaken extends Error {}

/**
 * Takes an album out of the bin under its own title, or under `newTitle`
 * when given. Refused (titleTaken) while an album outside the bin has the
 * title it would take.
 */
export async function restoreGallery({
  id,
  newTitle,
  actor = null,
}: {
  id: string;
  newTitle?: string | null;
  actor?: Actor;
}): Promise<RestoreResult> {
  const gid = rowId(id);
  if (gid === null) return { ok: false, reason: "gone" };
  let attempted = "";
  try {
    const restored = await withDb((db) =>
      db.transaction(async (tx) => {
        const [binned] = await tx
          .select({ title: galleries.title })
          .from(galleries)
          .where(and(eq(galleries.id, gid), isNotNull(galleries.deletedAt)))
          .for("update");
        if (!binned) return null;
        const title = newTitle == null ? binned.title : normalizeTitle(newTitle);
        attempted = title;
        if (newTitle != null) {
          const invalid = checkGalleryValues({ title, description: "", date: "2000-01-01" }).fieldErrors?.title;
          if (invalid) return { invalid };
        }
        const [clash] = await tx
          .select({ id: galleries.id })
          .from(galleries)
          .where(and(eq(galleries.title, title), isNull(galleries.deletedAt)))
          .limit(1);
        if (clash) throw new TitleTaken();
        await tx.update(galleries).set({ title, deletedAt: null, deletedBy: null }).where(eq(galleries.id, gid));
        await recordActivity(tx, { actor, action: "restored", subject: { kind: "gallery", id: gid, title } });
        return { title };
      }),
    );
    if (!restored) return { ok: false, reason: "gone" };
    if ("invalid" in restored) return { ok: false, reason: "titleTaken", title: attempted, error: restored.invalid };
    await contentChanged();
    return { ok: true, title: restored.title };
  } catch (error) {
    // Two restores (or a save) racing for one title meet at the unique index.
    if (error instanceof TitleTaken || isUniqueViolation(error, "galleries_title_key")) {
      return { ok: false, reason: "titleTaken", title: attempted };
    }
    throw error;
  }
}

/**
 * Deletes an item in the bin for good: its row, then the files no other row
 * names. `actor` null means the site purged it after 30 days. False when
 * the bin does not hold it.
 */
export async function purgeItem(
  { kind, id, actor = null }: { kind: BinKind; id: string; actor?: Actor },
  store: Storage = storage(),
): Promise<boolean> {
  const gid = kind === "article" ? null : rowId(id);
  if (kind !== "article" && gid === null) return false;
  const removed = await withDb((db) =>
    db.transaction(async (tx) => {
      await lockGalleryFiles(tx);
      let title: string;
      let images: StoredImage[];
      if (kind === "article") {
        const [row] = await tx
          .delete(articles)
          .where(and(eq(articles.id, id), isNotNull(articles.deletedAt)))
          .returning({
            header: articles.header,
            key: articles.imageKey,
            width: articles.imageWidth,
            height: articles.imageHeight,
          });
        if (!row) return null;
        title = row.header;
        images = row.key ? [{ key: row.key, width: row.width ?? 0, height: row.height ?? 0 }] : [];
      } else if (kind === "event") {
        // Its exceptions go with it (on delete cascade).
        const [row] = await tx
          .delete(events)
          .where(and(eq(events.id, gid!), isNotNull(events.deletedAt)))
          .returning({
            title: events.title,
            key: events.imageKey,
            width: events.imageWidth,
            height: events.imageHeight,
          });
        if (!row) return null;
        title = row.title;
        images = row.key ? [{ key: row.key, width: row.width ?? 0, height: row.height ?? 0 }] : [];
      } else if (kind === "testimony") {
        const [row] = await tx
          .delete(testimonies)
          .where(and(eq(testimonies.id, gid!), isNotNull(testimonies.deletedAt)))
          .returning({ title: testimonies.title });
        if (!row) return null;
        title = row.title;
        images = [];
      } else {
        const own = await tx
          .select({ key: galleryImages.imageKey, width: galleryImages.width, height: galleryImages.height })
          .from(galleryImages)
          .innerJoin(galleries, eq(galleries.id, galleryImages.galleryId))
          .where(and(eq(galleryImages.galleryId, gid!), isNotNull(galleries.deletedAt)));
        const [row] = await tx
          .delete(galleries)
          .where(and(eq(galleries.id, gid!), isNotNull(galleries.deletedAt)))
          .returning({ title: galleries.title });
        if (!row) return null;
        title = row.title;
        images = own;
      }
      await recordActivity(tx, { actor, action: "purged", subject: { kind, id, title } });
      return unreferencedImages(tx, images);
    }),
  );
  if (!removed) return false;
  await deleteImageFiles(removed, store);
  return true;
}

/**
 * Purges what has been in the bin for 30 days, and prunes history entries
 * older than a year. Returns how many bin items went.
 */
export async function purgeExpired(
  { now = clock.now() }: { now?: Date } = {},
  store: Storage = storage(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - BIN_KEEP_MS);
  const [a, g, t, e] = await withDb((db) =>
    Promise.all([
      db
        .select({ id: articles.id })
        .from(articles)
        .where(and(isNotNull(articles.deletedAt), lt(articles.deletedAt, cutoff))),
      db
        .select({ id: galleries.id })
        .from(galleries)
        .where(and(isNotNull(galleries.deletedAt), lt(galleries.deletedAt, cutoff))),
      db
        .select({ id: testimonies.id })
        .from(testimonies)
        .where(and(isNotNull(testimonies.deletedAt), lt(testimonies.deletedAt, cutoff))),
      db
        .select({ id: events.id })
        .from(events)
        .where(and(isNotNull(events.deletedAt), lt(events.deletedAt, cutoff))),
    ]),
  );
  let purged = 0;
  for (const r of a) if (await purgeItem({ kind: "article", id: r.id }, store)) purged++;
  for (const r of g) if (await purgeItem({ kind: "gallery", id: String(r.id) }, store)) purged++;
  for (const r of t) if (await purgeItem({ kind: "testimony", id: String(r.id) }, store)) purged++;
  for (const r of e) if (await purgeItem({ kind: "event", id: String(r.id) }, store)) purged++;
  await pruneActivity({ now });
  if (purged) logger.info({ purged }, "items older than 30 days purged from the bin");
  return purged;
}

// Visits to the pastor area purge at most this often per instance.
const VISIT_PURGE_INTERVAL_MS = 10 * 60 * 1000;
const visits = globalThis as typeof globalThis & { __binPurgedAt?: number };

/**
 * Called by pastor-area loaders: purges the bin unless this instance did so
 * in the last minutes. A failure is logged; the page is shown anyway.
 */
export async function purgeOnVisit(): Promise<void> {
  const now = clock.now();
  const last = visits.__binPurgedAt;
  if (last !== undefined && now.getTime() - last < VISIT_PURGE_INTERVAL_MS && now.getTime() >= last) return;
  visits.__binPurgedAt = now.getTime();
  try {
    await purgeExpired({ now });
  } catch (error) {
    logger.error({ err: error }, "purging the bin failed");
  }
}
