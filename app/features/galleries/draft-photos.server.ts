// Photos arriving in a batch: each is checked and stored on its own (one bad
// file refuses only itself), then joins the draft.
import { IMAGE_MESSAGES, ImageRejected, type StoredImage, deleteImage, storeImage } from "~/services/images.server";
import { logger } from "~/services/logger.server";
import { type Storage, storage } from "~/services/storage.server";
import { GALLERY_MESSAGES } from "~/features/galleries/album-values";
import { type RefusedFile, batchReport } from "~/features/galleries/constants";
import { addDraftImage, uploadedBefore } from "~/features/galleries/drafts.server";
import { type EditorImage, GALLERY_FOLDER } from "~/features/galleries/galleries.server";

export interface UploadedPhoto {
  /** File name as the browser sent it. */
  name: string;
  /** A temporary file on local disk. */
  path: string;
}

const answerFor = (row: { name: string; imageKey: string; width: number; height: number }): PhotoResult => ({
  name: row.name,
  ok: true,
  image: { key: row.imageKey, name: row.name, width: row.width, height: row.height, alt: "" },
});

export type PhotoResult =
  { name: string; ok: true; image: EditorImage } | { name: string; ok: false; reason: string; heic?: boolean };

/** A file name fit for a row and a page: no control characters, not endless. */
export function displayName(name: string): string {
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return (clean.length > 120 ? `${clean.slice(0, 80)}…${clean.slice(-30)}` : clean) || "zdjęcie";
}

/** 'format HEIC nie jest obsługiwany': the first sentence of the pipeline's message, as a clause. */
export function refusalReason(error: unknown): string {
  if (error instanceof ImageRejected) {
    const first = IMAGE_MESSAGES[error.reason].split(/\.\s/)[0].replace(/\.$/, "");
    return first.charAt(0).toLowerCase() + first.slice(1);
  }
  return GALLERY_MESSAGES.storeFailed;
}

/**
 * Adds photos to a draft one at a time (one decoded photo in memory at a
 * time per request), so one bad file refuses only itself. The draft is
 * created with the first photo that is accepted: a batch that adds nothing
 * leaves no trace. Returns the draft id (null if none) and one result per file.
 */
export async function addPhotos(
  {
    draftId,
    folder,
    startDraft,
    photos,
    uploadId = null,
  }: {
    draftId: string | null;
    folder: string;
    /** The script's id of a single file's upload: a retry of it never adds the photo twice. */
    uploadId?: string | null;
    /** Creates the draft when the first photo is stored; null when that is no longer possible. */
    startDraft: () => Promise<string | null>;
    photos: UploadedPhoto[];
  },
  store: Storage = storage(),
): Promise<{ draftId: string | null; results: PhotoResult[]; gone: boolean }> {
  const results: PhotoResult[] = [];
  let gone = false;
  // A retry whose first try arrived: the photo is already in the draft.
  const earlier = uploadId && draftId && photos.length === 1 ? await uploadedBefore(draftId, uploadId) : null;
  if (earlier) return { draftId, results: [answerFor(earlier)], gone };
  for (const photo of photos) {
    const name = displayName(photo.name);
    if (gone) {
      results.push({ name, ok: false, reason: GALLERY_MESSAGES.storeFailed });
      continue;
    }
    let stored: StoredImage;
    try {
      stored = await storeImage(photo.path, photo.name, `${GALLERY_FOLDER}/${folder}`, store);
    } catch (error) {
      if (!(error instanceof ImageRejected)) logger.error({ err: error }, "storing a gallery photo failed");
      results.push({
        name,
        ok: false,
        reason: refusalReason(error),
        heic: error instanceof ImageRejected && error.reason === "heic",
      });
      continue;
    }
    try {
      draftId ??= await startDraft();
      const id = photos.length === 1 ? uploadId : null;
      const added = draftId ? await addDraftImage({ draftId, name, image: stored, uploadId: id }, store) : "gone";
      if (added !== "gone") {
        results.push(answerFor(added));
        continue;
      }
      gone = true;
      if (!draftId) await deleteImage(stored, store).catch(() => {});
      results.push({ name, ok: false, reason: GALLERY_MESSAGES.storeFailed });
    } catch (error) {
      // The database failed after the files were written: remove them, then answer as the database did.
      await deleteImage(stored, store).catch(() => {});
      throw error;
    }
  }
  return { draftId, results, gone };
}

/** '7 z 8 zdjęć dodano; IMG_0042.HEIC: format HEIC nie jest obsługiwany', or null for no files. */
export function reportFor(results: PhotoResult[]): string | null {
  if (results.length === 0) return null;
  const refused: RefusedFile[] = results.flatMap((r) => (r.ok ? [] : [{ name: r.name, reason: r.reason }]));
  return batchReport(results.length, refused);
}

/** How to send iPhone photos as JPEG, when a HEIC file was refused. */
export function hintFor(results: PhotoResult[]): string | null {
  if (!results.some((r) => !r.ok && r.heic)) return null;
  return IMAGE_MESSAGES.heic.split(/\.\s/).slice(1).join(". ");
}
