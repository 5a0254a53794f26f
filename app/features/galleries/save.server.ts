// Saving an album: a new one or the edited one, with its draft's images, in
// one transaction.
import { and, eq, ne } from "drizzle-orm";
import { galleries, galleryDrafts, galleryImages } from "~/services/schema";
import { contentChanged } from "~/services/content-version.server";
import { isUniqueViolation, withDb } from "~/services/db.server";
import type { StoredImage } from "~/services/images.server";
import { type Storage, storage } from "~/services/storage.server";
import {
  type FieldErrors,
  GALLERY_MESSAGES,
  type GalleryValues,
  checkGalleryValues,
  normalizeTitle,
} from "~/features/galleries/album-values";
import { draftImages } from "~/features/galleries/drafts.server";
import {
  type EditorImage,
  deleteImageFiles,
  lockGalleryFiles,
  unreferencedImages,
} from "~/features/galleries/galleries.server";

export type SaveResult =
  { ok: true; title: string } | { ok: false; fieldErrors?: FieldErrors; error?: string; gone?: "draft" | "gallery" };

class TitleTaken extends Error {}

/** Whether another album has this title (the album being edited excepted). */
export async function isTitleTaken(title: string, exceptGalleryId: number | null = null): Promise<boolean> {
  const rows = await withDb((db) =>
    db
      .select({ id: galleries.id })
      .from(galleries)
      .where(
        exceptGalleryId === null
          ? eq(galleries.title, normalizeTitle(title))
          : and(eq(galleries.title, normalizeTitle(title)), ne(galleries.id, exceptGalleryId)),
      )
      .limit(1),
  );
  return rows.length > 0;
}

/**
 * Saves an album in one transaction: a new one, or the edited one under its
 * (possibly new) title, with the draft's images in the draft's order. With
 * no draft the album keeps the images it has. The draft is deleted; files
 * the album no longer shows, and nothing else names, are deleted after the
 * commit. Another album's title is refused, also when two saves race for it.
 */
export async function saveGallery(
  {
    userId,
    draftId,
    galleryId,
    values: input,
  }: { userId: number; draftId: string | null; galleryId: number | null; values: GalleryValues },
  store: Storage = storage(),
): Promise<SaveResult> {
  const { values, fieldErrors } = checkGalleryValues(input);
  if (fieldErrors) return { ok: false, fieldErrors };
  let outcome: { result: SaveResult; removed: StoredImage[] };
  try {
    outcome = await withDb((db) =>
      db.transaction(async (tx) => {
        await lockGalleryFiles(tx);
        let images: EditorImage[] | null = null;
        if (draftId) {
          const [draft] = await tx
            .select({ galleryId: galleryDrafts.galleryId })
            .from(galleryDrafts)
            .where(and(eq(galleryDrafts.id, draftId), eq(galleryDrafts.userId, userId)))
            .for("update");
          if (!draft || draft.galleryId !== galleryId)
            return { result: { ok: false, gone: "draft" }, removed: [] } as const;
          images = await draftImages(tx, draftId);
        }
        const clash = await tx
          .select({ id: galleries.id })
          .from(galleries)
          .where(
            galleryId === null
              ? eq(galleries.title, values.title)
              : and(eq(galleries.title, values.title), ne(galleries.id, galleryId)),
          );
        if (clash.length) throw new TitleTaken();

        let id: number;
        let removed: StoredImage[] = [];
        if (galleryId === null) {
          [{ id }] = await tx.insert(galleries).values(values).returning({ id: galleries.id });
        } else {
          const updated = await tx
            .update(galleries)
            .set(values)
            .where(eq(galleries.id, galleryId))
            .returning({ id: galleries.id });
          if (updated.length === 0) return { result: { ok: false, gone: "gallery" }, removed: [] } as const;
          id = galleryId;
        }
        if (images) {
          const before = await tx
            .select({ key: galleryImages.imageKey, width: galleryImages.width, height: galleryImages.height })
            .from(galleryImages)
            .where(eq(galleryImages.galleryId, id));
          await tx.delete(galleryImages).where(eq(galleryImages.galleryId, id));
          if (images.length) {
            await tx.insert(galleryImages).values(
              images.map((img, position) => ({
                galleryId: id,
                position,
                name: img.name,
                imageKey: img.key,
                width: img.width,
                height: img.height,
                alt: img.alt,
              })),
            );
          }
          await tx.delete(galleryDrafts).where(eq(galleryDrafts.id, draftId!));
          removed = await unreferencedImages(tx, before);
        }
        return { result: { ok: true, title: values.title }, removed } as const;
      }),
    );
  } catch (error) {
    // The check above sees committed albums only; two saves at once meet at the unique index.
    if (error instanceof TitleTaken || isUniqueViolation(error, "galleries_title_key")) {
      return { ok: false, error: GALLERY_MESSAGES.titleTaken };
    }
    throw error;
  }
  if (outcome.result.ok) await contentChanged();
  await deleteImageFiles(outcome.removed, store);
  return outcome.result;
}
