// Saving an album: a new one or the edited one, with its draft's images, in
// one transaction.
import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Publication } from "~/features/publishing/publication";
import {
  publicationChange,
  publicationOf,
  publishAtFor,
  readPublishChoice,
} from "~/features/publishing/publication.server";
import { type DraftFeedback, galleries, galleryDrafts, galleryImages } from "~/services/schema";
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
  liveGallery,
  lockGalleryFiles,
  unreferencedImages,
} from "~/features/galleries/galleries.server";
import { type Actor, recordActivity } from "~/features/activity/activity.server";

export type GalleryConflict = NonNullable<DraftFeedback["conflict"]>;

export type SaveResult =
  | { ok: true; title: string; publication: Publication }
  | {
      ok: false;
      fieldErrors?: FieldErrors;
      error?: string;
      gone?: "draft" | "gallery";
      /** The album changed since the edit began: nothing saved. */
      conflict?: GalleryConflict;
    };

/** What differs between the stored album and the edit: in Polish, as the editor lists it. */
function albumChanges(
  stored: { title: string; description: string; date: string; keys: string[] },
  mine: { title: string; description: string; date: string; keys: string[] | null },
): string[] {
  const changed: string[] = [];
  if (stored.title !== mine.title) changed.push("tytuł");
  if (stored.description !== mine.description) changed.push("opis");
  if (stored.date !== mine.date) changed.push("data");
  if (mine.keys) {
    const theirs = new Set(stored.keys);
    const ours = new Set(mine.keys);
    if (stored.keys.some((k) => !ours.has(k))) changed.push("dodane zdjęcia");
    if (mine.keys.some((k) => !theirs.has(k))) changed.push("usunięte zdjęcia");
    const common = (keys: string[], other: Set<string>) => keys.filter((k) => other.has(k)).join("\n");
    if (common(stored.keys, ours) !== common(mine.keys, theirs)) changed.push("kolejność zdjęć");
  }
  return changed;
}

class TitleTaken extends Error {}

/** Whether another album outside the bin has this title (the album being edited excepted). */
export async function isTitleTaken(title: string, exceptGalleryId: number | null = null): Promise<boolean> {
  const rows = await withDb((db) =>
    db
      .select({ id: galleries.id })
      .from(galleries)
      .where(
        exceptGalleryId === null
          ? and(eq(galleries.title, normalizeTitle(title)), liveGallery)
          : and(eq(galleries.title, normalizeTitle(title)), liveGallery, ne(galleries.id, exceptGalleryId)),
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
    baseVersion = null,
    actor = null,
    intent = "publish",
  }: {
    userId: number;
    draftId: string | null;
    galleryId: number | null;
    values: GalleryValues;
    /** The album version the edit began from; a save over a newer one is refused. */
    baseVersion?: number | null;
    actor?: Actor;
    /** 'zapisz jako szkic' saves the album as a draft, taking it off the public site. */
    intent?: "publish" | "draft";
  },
  store: Storage = storage(),
): Promise<SaveResult> {
  const checked = checkGalleryValues(input);
  const choice = readPublishChoice(intent, checked.values.publishAt);
  const fieldErrors = choice.ok ? checked.fieldErrors : { ...checked.fieldErrors, publishAt: choice.message };
  if (fieldErrors || !choice.ok) return { ok: false, fieldErrors: fieldErrors ?? undefined };
  const { publishAt: _typed, ...values } = checked.values;
  let publishAt: Date | null = null;
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
        // The album being edited, read and locked once: two saves begun from
        // one version cannot both pass the version check.
        let stored:
          { title: string; description: string; date: string; version: number; publishAt: Date | null } | undefined;
        if (galleryId !== null) {
          [stored] = await tx
            .select({
              title: galleries.title,
              description: galleries.description,
              date: galleries.date,
              version: galleries.version,
              publishAt: galleries.publishAt,
            })
            .from(galleries)
            .where(and(eq(galleries.id, galleryId), liveGallery))
            .for("update");
          if (!stored) return { result: { ok: false, gone: "gallery" }, removed: [] } as const;
        }
        if (galleryId !== null && stored && baseVersion !== null) {
          if (stored.version !== baseVersion) {
            const keys = (
              await tx
                .select({ key: galleryImages.imageKey })
                .from(galleryImages)
                .where(eq(galleryImages.galleryId, galleryId))
                .orderBy(asc(galleryImages.position), asc(galleryImages.id))
            ).map((r) => r.key);
            const conflict: GalleryConflict = {
              version: stored.version,
              changed: albumChanges({ ...stored, keys }, { ...values, keys: images?.map((i) => i.key) ?? null }),
              current: { title: stored.title, description: stored.description, date: stored.date },
            };
            return { result: { ok: false, error: GALLERY_MESSAGES.conflict, conflict }, removed: [] } as const;
          }
        }
        const clash = await tx
          .select({ id: galleries.id })
          .from(galleries)
          .where(
            galleryId === null
              ? and(eq(galleries.title, values.title), liveGallery)
              : and(eq(galleries.title, values.title), liveGallery, ne(galleries.id, galleryId)),
          );
        if (clash.length) throw new TitleTaken();

        let id: number;
        let removed: StoredImage[] = [];
        let previousPublishAt: Date | null = null;
        if (galleryId === null) {
          publishAt = publishAtFor(choice.choice, null);
          [{ id }] = await tx
            .insert(galleries)
            .values({ ...values, publishAt })
            .returning({ id: galleries.id });
        } else {
          const current = stored!;
          previousPublishAt = current.publishAt;
          publishAt = publishAtFor(choice.choice, current.publishAt);
          const unchanged =
            !images &&
            current.title === values.title &&
            current.description === values.description &&
            current.date === values.date &&
            current.publishAt?.getTime() === publishAt?.getTime();
          // Saved as it was: no new version, nothing for the history.
          if (unchanged) {
            return { result: { ok: true, title: values.title, publication: publicationOf(publishAt) }, removed: [] };
          }
          const updated = await tx
            .update(galleries)
            .set({ ...values, publishAt, version: sql`${galleries.version} + 1` })
            .where(and(eq(galleries.id, galleryId), liveGallery))
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
        const subject = { kind: "gallery", id, title: values.title } as const;
        await recordActivity(tx, { actor, action: galleryId === null ? "created" : "edited", subject });
        // Added is published unless it waits for its moment; an edit may publish or schedule it.
        const change = publicationChange(galleryId === null ? null : previousPublishAt, publishAt);
        if (change === "scheduled" || (change && galleryId !== null)) {
          await recordActivity(tx, { actor, action: change, subject });
        }
        return {
          result: { ok: true, title: values.title, publication: publicationOf(publishAt) },
          removed,
        } as const;
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
