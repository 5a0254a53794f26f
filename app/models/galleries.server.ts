import { asc, desc, eq, sql } from "drizzle-orm";
import { galleries, galleryImages } from "~/db/schema";
import { withDb } from "~/db.server";
import { type ImageView, imageView } from "~/images.server";

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
  images: (ImageView & { name: string })[];
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
      .orderBy(desc(galleries.date), desc(galleries.id)),
  );
  return rows.map((r) => ({
    title: r.title,
    description: r.description,
    date: r.date,
    cover: r.cover ? imageView(r.cover) : null,
  }));
}

/** One album with its images in order, in one query; null when no album has this title. */
export async function getGalleryByTitle(title: string): Promise<GalleryDetail | null> {
  const rows = await withDb((db) =>
    db
      .select({
        title: galleries.title,
        description: galleries.description,
        date: galleries.date,
        name: galleryImages.name,
        imageKey: galleryImages.imageKey,
        width: galleryImages.width,
        height: galleryImages.height,
      })
      .from(galleries)
      .leftJoin(galleryImages, eq(galleryImages.galleryId, galleries.id))
      .where(eq(galleries.title, title))
      .orderBy(asc(galleryImages.position), asc(galleryImages.id)),
  );
  if (rows.length === 0) return null;
  const { title: t, description, date } = rows[0];
  return {
    title: t,
    description,
    date,
    images: rows.flatMap((r) =>
      r.imageKey && r.width && r.height
        ? [{ name: r.name ?? "", ...imageView({ key: r.imageKey, width: r.width, height: r.height }) }]
        : [],
    ),
  };
}

/**
 * The title named by a `/galeria/{slug}` path segment, taken from the raw
 * (still encoded) URL so that titles holding `/`, `%` or `?` round-trip.
 */
export function titleFromSlug(rawSegment: string): string | null {
  if (rawSegment.length === 0 || rawSegment.length > 2000) return null;
  try {
    return decodeURIComponent(rawSegment);
  } catch {
    return null;
  }
}
