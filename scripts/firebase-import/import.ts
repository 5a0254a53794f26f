// Import from the old Firebase site: a Firestore JSON export of the
// collections aktualnosci, galleries and history-gallery.
//
// Document ids are kept (article ids stay the millisecond timestamps old
// links use; album titles, hence slugs, stay the same). Every image URL is
// downloaded through the same pipeline as uploads and stored under a key
// derived from the document, so a rerun rewrites the same files and adds no
// rows. An image that cannot be downloaded or is refused is reported and its
// record kept with the original URL (an "external" image, see
// lib/image-variants.ts); a rerun tries such images again.
import { and, eq, or, sql } from "drizzle-orm";
import pLimit from "p-limit";
import { articles, galleries, galleryImages, historyPhotos } from "~/services/schema";
import { clock } from "~/services/clock.server";
import { contentChanged } from "~/services/content-version.server";
import { withDb } from "~/services/db.server";
import { ImageRejected, type StoredImage, storeImageAt } from "~/services/images.server";
import { EXTERNAL_IMAGE_ORIGINS, EXTERNAL_IMAGE_SIZE, isExternalImage } from "~/lib/image-variants";
import { lockGalleryFiles } from "~/features/galleries/galleries.server";
import { type Storage, storage } from "~/services/storage.server";
import { type DownloadSources, fetchCapped, failureReason } from "./download";
import { COLLECTIONS, type CollectionName, type FirebaseExport } from "./export-file";
import { articleImageKey, galleryImageKey, historyImageKey } from "./keys";

export interface CollectionSummary {
  /** Documents of this collection in the file. */
  documents: number;
  added: number;
  /** Already on the site (by article id, album title, history photo key). */
  present: number;
  /** Images downloaded and stored by this run (new records and retried external ones). */
  downloaded: number;
  /** Images that could not be downloaded or were refused; their records keep the URL. */
  unreachable: number;
}

export interface ImageFailure {
  collection: CollectionName;
  docId: string;
  url: string;
  reason: string;
}

export interface ImportSummary {
  collections: Record<CollectionName, CollectionSummary>;
  failures: ImageFailure[];
}

export interface ImportOptions extends DownloadSources {
  store?: Storage;
  /** Per image, connection and body together. */
  timeoutMs?: number;
  /** Downloads at once; each holds at most the upload limit in memory. */
  concurrency?: number;
  /** Progress lines. */
  log?: (line: string) => void;
}

const external = (url: string): StoredImage => ({ key: url, ...EXTERNAL_IMAGE_SIZE });

/** Imports an export checked by parseFirebaseExport; safe to run again with the same file. */
export async function importFirebase(data: FirebaseExport, options: ImportOptions = {}): Promise<ImportSummary> {
  const store = options.store ?? storage();
  const timeoutMs = options.timeoutMs ?? 30_000;
  // Documents (or an album's images) imported at once, each holding at most one download.
  const pool = pLimit(Math.max(1, options.concurrency ?? 3));
  const log = options.log ?? (() => {});
  const blank = (documents: number): CollectionSummary => ({
    documents,
    added: 0,
    present: 0,
    downloaded: 0,
    unreachable: 0,
  });
  const summary: ImportSummary = {
    collections: {
      aktualnosci: blank(data.articles.length),
      galleries: blank(data.galleries.length),
      "history-gallery": blank(data.history.length),
    },
    failures: [],
  };

  /** Downloads and stores one image; null (reported) when it cannot be had. Storage errors are thrown. */
  async function fetchImage(
    collection: CollectionName,
    docId: string,
    url: string,
    key: string,
  ): Promise<StoredImage | null> {
    const counts = summary.collections[collection];
    let body: Buffer;
    try {
      body = await fetchCapped(url, timeoutMs, options);
    } catch (error) {
      counts.unreachable++;
      summary.failures.push({ collection, docId, url, reason: failureReason(error, timeoutMs) });
      return null;
    }
    try {
      const image = await storeImageAt(body, key, store);
      counts.downloaded++;
      return image;
    } catch (error) {
      if (!(error instanceof ImageRejected)) throw error;
      counts.unreachable++;
      summary.failures.push({ collection, docId, url, reason: error.message });
      return null;
    }
  }

  // --- aktualnosci: by id.
  log(`aktualnosci: ${data.articles.length}…`);
  const articleCounts = summary.collections.aktualnosci;
  await pool.map(data.articles, async (a) => {
    const [existing] = await withDb((db) =>
      db.select({ imageKey: articles.imageKey }).from(articles).where(eq(articles.id, a.id)).limit(1),
    );
    if (existing) {
      articleCounts.present++;
      // Kept at its URL last time: try once more.
      if (a.url && existing.imageKey === a.url) {
        const image = await fetchImage("aktualnosci", a.id, a.url, articleImageKey(a.id, a.url));
        if (image) {
          await withDb((db) =>
            db
              .update(articles)
              .set({ imageKey: image.key, imageWidth: image.width, imageHeight: image.height })
              .where(and(eq(articles.id, a.id), eq(articles.imageKey, a.url!))),
          );
        }
      }
      return;
    }
    const image = a.url
      ? ((await fetchImage("aktualnosci", a.id, a.url, articleImageKey(a.id, a.url))) ?? external(a.url))
      : null;
    const ms = /^\d{10,15}$/.test(a.id) ? Number(a.id) : NaN;
    const inserted = await withDb((db) =>
      db
        .insert(articles)
        .values({
          id: a.id,
          header: a.header,
          text: a.text,
          date: a.date,
          imageKey: image?.key ?? null,
          imageWidth: image?.width ?? null,
          imageHeight: image?.height ?? null,
          // The id is the creation time on the old site, where it was public at once.
          ...(Number.isFinite(ms) ? { createdAt: new Date(ms) } : {}),
          publishAt: Number.isFinite(ms) && ms <= clock.now().getTime() ? new Date(ms) : clock.now(),
        })
        .onConflictDoNothing()
        .returning({ id: articles.id }),
    );
    if (inserted.length) articleCounts.added++;
    else articleCounts.present++;
  });

  // --- galleries: by title; an album and its images go in together.
  log(`galleries: ${data.galleries.length}…`);
  const galleryCounts = summary.collections.galleries;
  for (const g of data.galleries) {
    const [existing] = await withDb((db) =>
      db.select({ id: galleries.id }).from(galleries).where(eq(galleries.title, g.title)).limit(1),
    );
    if (existing) {
      galleryCounts.present++;
      const urls = new Map(g.images.map((i) => [i.url, i]));
      const kept = (
        await withDb((db) =>
          db
            .select({ id: galleryImages.id, key: galleryImages.imageKey })
            .from(galleryImages)
            .where(eq(galleryImages.galleryId, existing.id)),
        )
      ).filter((r) => isExternalImage(r.key) && urls.has(r.key));
      await pool.map(kept, async (row) => {
        const source = urls.get(row.key)!;
        const image = await fetchImage(
          "galleries",
          g.docId,
          row.key,
          galleryImageKey(g.title, source.name, source.url),
        );
        if (!image) return;
        await withDb((db) =>
          db
            .update(galleryImages)
            .set({ imageKey: image.key, width: image.width, height: image.height })
            .where(and(eq(galleryImages.id, row.id), eq(galleryImages.imageKey, row.key))),
        );
      });
      continue;
    }
    const images = await pool.map(
      g.images,
      async (i) =>
        (await fetchImage("galleries", g.docId, i.url, galleryImageKey(g.title, i.name, i.url))) ?? external(i.url),
    );
    const added = await withDb((db) =>
      db.transaction(async (tx) => {
        await lockGalleryFiles(tx);
        const [row] = await tx
          .insert(galleries)
          .values({ title: g.title, description: g.description, date: g.date, publishAt: clock.now() })
          .onConflictDoNothing()
          .returning({ id: galleries.id });
        if (!row) return false;
        if (images.length) {
          await tx.insert(galleryImages).values(
            images.map((image, position) => ({
              galleryId: row.id,
              position,
              name: g.images[position].name,
              imageKey: image.key,
              width: image.width,
              height: image.height,
            })),
          );
        }
        return true;
      }),
    );
    if (added) galleryCounts.added++;
    else galleryCounts.present++;
  }

  // --- history-gallery: by the key derived from the document, or (kept at
  // its URL) by URL and name; new photos follow the existing ones in file order.
  log(`history-gallery: ${data.history.length}…`);
  const historyCounts = summary.collections["history-gallery"];
  const [{ start }] = await withDb((db) =>
    db.select({ start: sql<number>`coalesce(max(${historyPhotos.position}) + 1, 0)::int` }).from(historyPhotos),
  );
  await pool.map(data.history, async (h, index) => {
    const key = historyImageKey(h.docId, h.url);
    const [existing] = await withDb((db) =>
      db
        .select({ id: historyPhotos.id, key: historyPhotos.imageKey })
        .from(historyPhotos)
        .where(
          or(eq(historyPhotos.imageKey, key), and(eq(historyPhotos.imageKey, h.url), eq(historyPhotos.name, h.name))),
        )
        .limit(1),
    );
    if (existing) {
      historyCounts.present++;
      if (existing.key === h.url) {
        const image = await fetchImage("history-gallery", h.docId, h.url, key);
        if (image) {
          await withDb((db) =>
            db
              .update(historyPhotos)
              .set({ imageKey: image.key, width: image.width, height: image.height })
              .where(and(eq(historyPhotos.id, existing.id), eq(historyPhotos.imageKey, h.url))),
          );
        }
      }
      return;
    }
    const image = (await fetchImage("history-gallery", h.docId, h.url, key)) ?? external(h.url);
    await withDb((db) =>
      db.insert(historyPhotos).values({
        name: h.name,
        imageKey: image.key,
        width: image.width,
        height: image.height,
        position: start + index,
      }),
    );
    historyCounts.added++;
  });

  summary.failures.sort((a, b) =>
    a.collection === b.collection
      ? a.docId.localeCompare(b.docId) || a.url.localeCompare(b.url)
      : COLLECTIONS.indexOf(a.collection) - COLLECTIONS.indexOf(b.collection),
  );
  // A running server shows what was imported at its next page.
  await contentChanged();
  return summary;
}

/** The summary printed at the end of `npm run import:firebase`. */
export function summaryLines(summary: ImportSummary): string[] {
  const lines = COLLECTIONS.map((name) => {
    const c = summary.collections[name];
    return (
      `${name}: w pliku ${c.documents}, dodano ${c.added}, już były ${c.present}, ` +
      `pobrane zdjęcia ${c.downloaded}, niedostępne zdjęcia ${c.unreachable}`
    );
  });
  const added = COLLECTIONS.reduce((sum, name) => sum + summary.collections[name].added, 0);
  lines.push(added === 0 ? "Nic nie dodano: wszystko z pliku już jest na stronie." : `Dodano razem: ${added}.`);
  if (summary.failures.length) {
    lines.push("Niedostępne zdjęcia (rekord zachowany z pierwotnym adresem):");
    for (const f of summary.failures) {
      const shown = EXTERNAL_IMAGE_ORIGINS.some((o) => new URL(f.url).origin === o);
      lines.push(
        `  ${f.collection}/${f.docId}: ${f.url} (${f.reason})${shown ? "" : " – adres spoza " + EXTERNAL_IMAGE_ORIGINS.join(", ") + ": strona go nie wyświetli"}`,
      );
    }
  }
  return lines;
}
