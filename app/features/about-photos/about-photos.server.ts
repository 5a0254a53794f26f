// The photos of the congregation's history ('Zdjęcia' on /onas): read by the
// page, and the pastor's changes: upload (the albums' photo pipeline: sizes,
// WebP and AVIF variants, EXIF and GPS dropped), describe, reorder, remove.
// Each change is in the history of changes and moves the content version, so
// every instance's pages follow at once.
import { asc, eq, sql } from "drizzle-orm";
import { type Actor, recordActivity } from "~/features/activity/activity.server";
import type { SessionUser } from "~/features/auth/auth.server";
import { getKeptForm, keptFormView } from "~/features/kept-forms/kept-forms.server";
import type { KeptFormView } from "~/features/kept-forms/messages";
import { displayName, refusalReason } from "~/features/galleries/draft-photos.server";
import {
  deleteImageFiles,
  lockGalleryFiles,
  thumbnailUrl,
  unreferencedImages,
} from "~/features/galleries/galleries.server";
import { type OrderedList, lockOrder, moveRow, reorderRows } from "~/features/ordering/ordered-rows.server";
import { contentChanged } from "~/services/content-version.server";
import { withDb } from "~/services/db.server";
import {
  ImageRejected,
  type ImageView,
  type StoredImage,
  deleteImage,
  imageView,
  storeImage,
} from "~/services/images.server";
import { logger } from "~/services/logger.server";
import { historyPhotos } from "~/services/schema";
import { type Storage, storage } from "~/services/storage.server";
import { isExternalImage } from "~/lib/image-variants";

/** Storage folder of history photos (the demo seed's too). */
export const HISTORY_FOLDER = "historia";
/** A description longer than this is cut: it is a picture's alt text, not an article. */
export const HISTORY_NAME_MAX = 300;

export async function listHistoryPhotos(): Promise<(ImageView & { name: string })[]> {
  const rows = await withDb((db) =>
    db
      .select({
        name: historyPhotos.name,
        key: historyPhotos.imageKey,
        width: historyPhotos.width,
        height: historyPhotos.height,
      })
      .from(historyPhotos)
      .orderBy(asc(historyPhotos.position), asc(historyPhotos.id)),
  );
  return rows.map((r) => ({ name: r.name, ...imageView(r) }));
}

export interface PastorHistoryPhoto {
  id: number;
  name: string;
  /** The version a new description begins from. */
  version: number;
  /** The smallest stored variant, for the list's thumbnail. */
  thumb: string;
  width: number;
  height: number;
}

/** The photos in the order of /onas, for the pastor's page. */
export async function listHistoryPhotosForPastor(store: Storage = storage()): Promise<PastorHistoryPhoto[]> {
  const rows = await withDb((db) =>
    db
      .select({
        id: historyPhotos.id,
        name: historyPhotos.name,
        version: historyPhotos.version,
        key: historyPhotos.imageKey,
        width: historyPhotos.width,
        height: historyPhotos.height,
      })
      .from(historyPhotos)
      .orderBy(asc(historyPhotos.position), asc(historyPhotos.id)),
  );
  return rows.map(({ key, ...r }) => ({ ...r, thumb: thumbnailUrl({ key, width: r.width, height: r.height }, store) }));
}

export type HistoryPhotoResult = { name: string; ok: true } | { name: string; ok: false; reason: string };

// Moves and new rows renumber or append under this lock, so two at once cannot tie.
const HISTORY_ORDER: OrderedList = {
  table: historyPhotos,
  id: historyPhotos.id,
  position: historyPhotos.position,
  label: historyPhotos.name,
  kind: "history_photo",
};

/**
 * Adds photos at the end, one at a time (one decoded photo in memory per
 * request), so one bad file refuses only itself. `path` is a temporary file.
 */
export async function addHistoryPhotos(
  photos: { name: string; path: string }[],
  { actor }: { actor: Actor },
  store: Storage = storage(),
): Promise<HistoryPhotoResult[]> {
  const results: HistoryPhotoResult[] = [];
  for (const photo of photos) {
    const name = displayName(photo.name).slice(0, HISTORY_NAME_MAX);
    let stored: StoredImage;
    try {
      stored = await storeImage(photo.path, photo.name, HISTORY_FOLDER, store);
    } catch (error) {
      if (!(error instanceof ImageRejected)) logger.error({ err: error }, "storing a history photo failed");
      results.push({ name, ok: false, reason: refusalReason(error) });
      continue;
    }
    try {
      await withDb((db) =>
        db.transaction(async (tx) => {
          await lockOrder(tx, HISTORY_ORDER);
          const [{ next }] = await tx
            .select({ next: sql<number>`coalesce(max(${historyPhotos.position}) + 1, 0)::int` })
            .from(historyPhotos);
          const [row] = await tx
            .insert(historyPhotos)
            .values({ name, imageKey: stored.key, width: stored.width, height: stored.height, position: next })
            .returning({ id: historyPhotos.id });
          await recordActivity(tx, {
            actor,
            action: "created",
            subject: { kind: "history_photo", id: row.id, title: name },
          });
        }),
      );
    } catch (error) {
      // The database failed after the files were written: remove them, then answer as the database did.
      await deleteImage(stored, store).catch(() => {});
      throw error;
    }
    results.push({ name, ok: true });
  }
  if (results.some((r) => r.ok)) await contentChanged();
  return results;
}

/** ↑ or ↓: swaps the photo with its neighbour. Null when the photo is gone. */
export async function moveHistoryPhoto(
  id: number,
  way: "up" | "down",
  { actor }: { actor: Actor },
): Promise<string | null> {
  return withDb(async (db) => {
    const change = await db.transaction((tx) => moveRow(tx, HISTORY_ORDER, id, way, actor));
    if (change.status !== "done") return null;
    await contentChanged(db);
    return change.label;
  });
}

/** A new order after a drag (see reorderRows); null when the list changed in another tab meanwhile. */
export async function reorderHistoryPhotos(
  order: number[],
  moved: number,
  { actor }: { actor: Actor },
): Promise<string | null> {
  return withDb(async (db) => {
    const change = await db.transaction((tx) => reorderRows(tx, HISTORY_ORDER, order, moved, actor));
    if (change.status !== "done") return null;
    if (change.changed) await contentChanged(db);
    return change.label;
  });
}

export const HISTORY_PHOTO_CONFLICT_MESSAGE =
  "Ktoś zapisał opis tego zdjęcia w innej karcie lub na innym urządzeniu, zanim zapisano Twoje zmiany. Nic nie zostało nadpisane.";

/**
 * The description visitors' screen readers hear (the photo's alt text).
 * Refused when the photo is gone, and (with the stored description and
 * version) when another tab described it anew since `baseVersion`.
 */
export async function describeHistoryPhoto(
  id: number,
  text: string,
  { baseVersion, actor }: { baseVersion: unknown; actor: Actor },
): Promise<{ ok: true; name: string } | { ok: false; error: string; conflict?: { current: string; version: number } }> {
  const name = text
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (!name) return { ok: false, error: "Opis zdjęcia nie może być pusty." };
  if ([...name].length > HISTORY_NAME_MAX) {
    return { ok: false, error: `Opis zdjęcia może mieć najwyżej ${HISTORY_NAME_MAX} znaków.` };
  }
  const outcome = await withDb((db) =>
    db.transaction(async (tx) => {
      const [current] = await tx
        .select({ name: historyPhotos.name, version: historyPhotos.version })
        .from(historyPhotos)
        .where(eq(historyPhotos.id, id))
        .for("update");
      if (!current) return "gone" as const;
      if (current.name === name) return "same" as const;
      if (Number(baseVersion) !== current.version) return { current: current.name, version: current.version };
      await tx
        .update(historyPhotos)
        .set({ name, version: current.version + 1 })
        .where(eq(historyPhotos.id, id));
      await recordActivity(tx, { actor, action: "edited", subject: { kind: "history_photo", id, title: name } });
      return "saved" as const;
    }),
  );
  if (outcome === "gone") return { ok: false, error: "Tego zdjęcia już nie ma." };
  if (typeof outcome === "object") return { ok: false, error: HISTORY_PHOTO_CONFLICT_MESSAGE, conflict: outcome };
  if (outcome === "saved") await contentChanged();
  return { ok: true, name };
}

/** Removes a photo for good, with its files unless another row names them. Null when it was gone already. */
export async function removeHistoryPhoto(
  id: number,
  { actor }: { actor: Actor },
  store: Storage = storage(),
): Promise<string | null> {
  const removed = await withDb((db) =>
    db.transaction(async (tx) => {
      await lockGalleryFiles(tx);
      const [row] = await tx.delete(historyPhotos).where(eq(historyPhotos.id, id)).returning({
        name: historyPhotos.name,
        key: historyPhotos.imageKey,
        width: historyPhotos.width,
        height: historyPhotos.height,
      });
      if (!row) return null;
      await recordActivity(tx, { actor, action: "purged", subject: { kind: "history_photo", id, title: row.name } });
      const image = { key: row.key, width: row.width, height: row.height };
      // A photo still at its imported address is not ours to delete.
      const files = isExternalImage(row.key) ? [] : await unreferencedImages(tx, [image]);
      return { name: row.name, files };
    }),
  );
  if (!removed) return null;
  await contentChanged();
  await deleteImageFiles(removed.files, store);
  return removed.name;
}

/** A photo's description kept after the session ended, as typed. */
export interface KeptHistoryPhotoForm extends KeptFormView {
  id: number;
  name: string;
  /** The version the edit began from. */
  version: number;
}

/**
 * The description kept for this page (?zachowane=key), if it is the user's,
 * from this browser. Only a description holds typed text; a kept move or
 * removal is not brought back. (An upload is not kept: it holds no text, and
 * the photos are chosen again.)
 */
export async function keptHistoryPhotoForm(
  keptId: string | null,
  user: Pick<SessionUser, "email" | "deviceId">,
): Promise<KeptHistoryPhotoForm | null> {
  const kept = await getKeptForm({ id: keptId, user, form: "history-photo" });
  if (!kept) return null;
  const { intent, id, name = "", version } = kept.fields;
  if (intent !== "describe" || !/^[1-9][0-9]{0,9}$/.test(id ?? "")) return null;
  return { ...keptFormView(kept), id: Number(id), name, version: Number(version) || 0 };
}
