import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Publication } from "~/features/publishing/publication";
import { galleryIsPublic, publicationOf } from "~/features/publishing/publication.server";
import { clock } from "~/services/clock.server";
import {
  articles,
  galleries,
  galleryDraftImages,
  events,
  galleryDrafts,
  galleryImages,
  historyPhotos,
} from "~/services/schema";
import { contentChanged } from "~/services/content-version.server";
import { type Db, withDb } from "~/services/db.server";
import {
  type ImageView,
  type ShareImage,
  type StoredImage,
  deleteImage,
  imageView,
  shareImage,
} from "~/services/images.server";
import { ALT_MAX } from "~/features/galleries/constants";
import { isExternalImage, variantKey, variantWidths } from "~/lib/image-variants";
import { logger } from "~/services/logger.server";
import { type Storage, storage } from "~/services/storage.server";
import { type Actor, recordActivity } from "~/features/activity/activity.server";

/** Albums not in the bin: every page but the bin shows only these. */
export const liveGallery = isNull(galleries.deletedAt);

export interface GalleryCard {
  title: string;
  description: string;
  date: string;
  cover: ImageView | null;
}

export interface GalleryDetail {
  title: string;
  description: string;
  date: string;
  images: (ImageView & { name: string; alt: string })[];
  /** The cover (first photo) for link previews on social sites. */
  cover: ShareImage | null;
  publication: Publication;
}

/** Albums newest first with their first image as cover, in one query. */
export async function listGalleryCards(): Promise<GalleryCard[]> {
  // The outer column is written out: drizzle would render it unqualified,
  // and inside the subquery that would mean gi.id.
  const cover = sql<{ key: string; width: number; height: number } | null>`(
    select json_build_object('key', gi.image_key, 'width', gi.width, 'height', gi.height)
    from ${galleryImages} gi
    where gi.gallery_id = "galleries"."id"
    order by gi.position, gi.id
    limit 1
  )`;
  const rows = await withDb((db) =>
    db
      .select({
        title: galleries.title,
        description: galleries.description,
        date: galleries.date,
        cover,
      })
      .from(galleries)
      .where(and(liveGallery, galleryIsPublic()))
      .orderBy(desc(galleries.date), desc(galleries.id)),
  );
  return rows.map((r) => ({
    title: r.title,
    description: r.description,
    date: r.date,
    cover: r.cover ? imageView(r.cover) : null,
  }));
}

/**
 * One album with its images in order, in one query; null when no album has
 * this title, or (unless `withUnpublished`: the pastor's pages) when
 * visitors may not see it yet.
 */
export async function getGalleryByTitle(
  title: string,
  { withUnpublished = false }: { withUnpublished?: boolean } = {},
): Promise<GalleryDetail | null> {
  const now = clock.now();
  const rows = await withDb((db) =>
    db
      .select({
        title: galleries.title,
        description: galleries.description,
        date: galleries.date,
        name: galleryImages.name,
        alt: galleryImages.alt,
        imageKey: galleryImages.imageKey,
        width: galleryImages.width,
        height: galleryImages.height,
        publishAt: galleries.publishAt,
      })
      .from(galleries)
      .leftJoin(galleryImages, eq(galleryImages.galleryId, galleries.id))
      .where(and(eq(galleries.title, title), liveGallery, withUnpublished ? undefined : galleryIsPublic(now)))
      .orderBy(asc(galleryImages.position), asc(galleryImages.id)),
  );
  if (rows.length === 0) return null;
  const { title: t, description, date, publishAt } = rows[0];
  const first = rows.find((r) => r.imageKey && r.width && r.height);
  return {
    title: t,
    description,
    date,
    images: rows.flatMap((r) =>
      r.imageKey && r.width && r.height
        ? [
            {
              name: r.name ?? "",
              alt: r.alt ?? "",
              ...imageView({ key: r.imageKey, width: r.width, height: r.height }),
            },
          ]
        : [],
    ),
    cover: first ? shareImage({ key: first.imageKey!, width: first.width!, height: first.height! }) : null,
    publication: publicationOf(publishAt, now),
  };
}

// ---------------------------------------------------------------------------
// Pastor area: listing, editing and deleting albums, and the files they own.

/** Uploads of the pastor's albums live under this storage folder. */
export const GALLERY_FOLDER = "galeria";

// Serialises every change to which rows name which gallery files (save,
// delete, copying an album into a draft, the cleanup), across instances, so
// that a file is deleted only when no row names it.
const GALLERY_FILES_LOCK = 7215_2025;

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export async function lockGalleryFiles(tx: Tx) {
  await tx.execute(sql`select pg_advisory_xact_lock(${GALLERY_FILES_LOCK})`);
}

/** An image in the editor: the key identifies it in forms. */
export interface EditorImage {
  key: string;
  name: string;
  width: number;
  height: number;
  /** The pastor's description for screen readers; empty for the default. */
  alt: string;
}

/** The description as stored: one line, trimmed, at most ALT_MAX characters. */
export function cleanAlt(value: string): string {
  return value
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, ALT_MAX);
}

/**
 * Of these images, the ones no row names any more: no album, no draft, and
 * (a photo may be shared) no article, history photo or event (a binned one too).
 */
export async function unreferencedImages(tx: Tx, images: StoredImage[]): Promise<StoredImage[]> {
  if (images.length === 0) return [];
  const keys = [...new Set(images.map((i) => i.key))];
  const used = new Set<string>();
  for (let i = 0; i < keys.length; i += 500) {
    const chunk = keys.slice(i, i + 500);
    const found = await Promise.all([
      tx.select({ key: galleryImages.imageKey }).from(galleryImages).where(inArray(galleryImages.imageKey, chunk)),
      tx
        .select({ key: galleryDraftImages.imageKey })
        .from(galleryDraftImages)
        .where(inArray(galleryDraftImages.imageKey, chunk)),
      tx.select({ key: articles.imageKey }).from(articles).where(inArray(articles.imageKey, chunk)),
      tx.select({ key: historyPhotos.imageKey }).from(historyPhotos).where(inArray(historyPhotos.imageKey, chunk)),
      tx.select({ key: events.imageKey }).from(events).where(inArray(events.imageKey, chunk)),
    ]);
    for (const rows of found) for (const r of rows) if (r.key) used.add(r.key);
  }
  const seen = new Set<string>();
  return images.filter((i) => !used.has(i.key) && !seen.has(i.key) && seen.add(i.key));
}

/**
 * Removes the files of images whose rows are gone; called after the commit.
 * A failure is logged, not thrown: the album change stands, and the
 * cleanup finds the unreferenced files later.
 */
export async function deleteImageFiles(images: StoredImage[], store: Storage = storage()) {
  for (const image of images) {
    try {
      await deleteImage(image, store);
    } catch (error) {
      logger.error({ err: error, key: image.key }, "removing a gallery photo failed");
    }
  }
}

/** Albums for the pastor's list, newest first, drafts and scheduled ones too. */
export async function listGalleriesForPastor(): Promise<{ title: string; date: string; publication: Publication }[]> {
  const now = clock.now();
  const rows = await withDb((db) =>
    db
      .select({ title: galleries.title, date: galleries.date, publishAt: galleries.publishAt })
      .from(galleries)
      .where(liveGallery)
      .orderBy(desc(galleries.date), desc(galleries.id)),
  );
  return rows.map((r) => ({ title: r.title, date: r.date, publication: publicationOf(r.publishAt, now) }));
}

/** An album with its images in order, as the editor starts from it. */
export async function getGalleryForEditor(titleOrId: string | { id: number }): Promise<{
  id: number;
  title: string;
  description: string;
  date: string;
  version: number;
  publishAt: Date | null;
  images: EditorImage[];
} | null> {
  return withDb(async (db) => {
    const [gallery] = await db
      .select({
        id: galleries.id,
        title: galleries.title,
        description: galleries.description,
        date: galleries.date,
        version: galleries.version,
        publishAt: galleries.publishAt,
      })
      .from(galleries)
      .where(
        and(
          typeof titleOrId === "string" ? eq(galleries.title, titleOrId) : eq(galleries.id, titleOrId.id),
          liveGallery,
        ),
      );
    if (!gallery) return null;
    const images = await db
      .select({
        key: galleryImages.imageKey,
        name: galleryImages.name,
        width: galleryImages.width,
        height: galleryImages.height,
        alt: galleryImages.alt,
      })
      .from(galleryImages)
      .where(eq(galleryImages.galleryId, gallery.id))
      .orderBy(asc(galleryImages.position), asc(galleryImages.id));
    return { ...gallery, images };
  });
}

/** The smallest stored variant, for the editor's 50 px thumbnails. */
export function thumbnailUrl(image: StoredImage, store: Storage = storage()): string {
  if (isExternalImage(image.key)) return image.key;
  return store.publicUrl(variantKey(image.key, variantWidths(image.width)[0]));
}

/**
 * Deletes an album: it moves to the bin (gone from every page at once) with
 * its photos kept stored; the bin purges it later. Unsaved edits of it end,
 * and the photos only they had are removed after the commit. False when no
 * album (outside the bin) has this title.
 */
export async function deleteGallery(
  { title }: { title: string },
  store: Storage = storage(),
  { actor = null }: { actor?: Actor } = {},
): Promise<boolean> {
  const removed = await withDb((db) =>
    db.transaction(async (tx) => {
      await lockGalleryFiles(tx);
      const [gallery] = await tx
        .update(galleries)
        .set({ deletedAt: clock.now(), deletedBy: actor?.email ?? null })
        .where(and(eq(galleries.title, title), liveGallery))
        .returning({ id: galleries.id, title: galleries.title });
      if (!gallery) return null;
      const drafted = await tx
        .select({
          key: galleryDraftImages.imageKey,
          width: galleryDraftImages.width,
          height: galleryDraftImages.height,
        })
        .from(galleryDraftImages)
        .innerJoin(galleryDrafts, eq(galleryDrafts.id, galleryDraftImages.draftId))
        .where(eq(galleryDrafts.galleryId, gallery.id));
      await tx.delete(galleryDrafts).where(eq(galleryDrafts.galleryId, gallery.id));
      await recordActivity(tx, {
        actor,
        action: "binned",
        subject: { kind: "gallery", id: gallery.id, title: gallery.title },
      });
      // The album's own photos are still named by its rows: only draft uploads can go.
      return unreferencedImages(tx, drafted);
    }),
  );
  if (!removed) return false;
  await contentChanged();
  await deleteImageFiles(removed, store);
  return true;
}
