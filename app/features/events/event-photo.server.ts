// An event's optional photo, through the same pipeline as an article's:
// checked and scaled by storeImage (variants in WebP and AVIF, the sharing
// JPEG, metadata such as EXIF and GPS left out), stored before the row is
// written, removed if the row is not. A replaced or removed photo's files go
// after the change has committed, and only when no other row names them.
import {
  type ImageInput,
  ImageRejected,
  type ImageView,
  type ShareImage,
  type StoredImage,
  deleteImage,
  imageView,
  shareImage,
  storeImage,
} from "~/services/images.server";
import { withDb } from "~/services/db.server";
import { logger } from "~/services/logger.server";
import { type Storage, storage } from "~/services/storage.server";
import { deleteImageFiles, lockGalleryFiles, unreferencedImages } from "~/features/galleries/galleries.server";
import { EVENT_PHOTO_MESSAGES } from "~/features/events/event-fields";

/** Storage folder of event photos. */
export const EVENT_IMAGE_FOLDER = "wydarzenia";

/** A photo sent with the form: a temporary file (or a kept photo's bytes) and the name the browser gave it. */
export interface EventPhotoUpload {
  input: ImageInput;
  name: string;
}

/** What the form asks of the photo: a new one (added or replacing), or the stored one removed ('usuń zdjęcie'). */
export interface EventPhotoChange {
  upload: EventPhotoUpload | null;
  remove: boolean;
}

export const NO_PHOTO_CHANGE: EventPhotoChange = { upload: null, remove: false };

/** The photo a row names, or null. */
export function storedPhotoOf(row: {
  imageKey: string | null;
  imageWidth: number | null;
  imageHeight: number | null;
}): StoredImage | null {
  return row.imageKey && row.imageWidth && row.imageHeight
    ? { key: row.imageKey, width: row.imageWidth, height: row.imageHeight }
    : null;
}

/** A row's photo as pages show it (responsive variants) and as social sites and search engines take it. */
export function photoViews(
  row: { imageKey: string | null; imageWidth: number | null; imageHeight: number | null },
  store: Storage = storage(),
): { image: ImageView | null; share: ShareImage | null } {
  const stored = storedPhotoOf(row);
  return stored ? { image: imageView(stored, store), share: shareImage(stored, store) } : { image: null, share: null };
}

/** The photo's columns as a row stores them (all null: no photo). */
export const photoColumns = (image: StoredImage | null) => ({
  imageKey: image?.key ?? null,
  imageWidth: image?.width ?? null,
  imageHeight: image?.height ?? null,
});

export type StorePhotoResult =
  { ok: true; image: StoredImage } | { ok: false; status: 400 | 413 | 503; message: string };

/** Checks, scales and stores the photo; a refusal or a storage failure becomes the message the form shows. */
export async function storeEventPhoto(upload: EventPhotoUpload, store: Storage = storage()): Promise<StorePhotoResult> {
  try {
    return { ok: true, image: await storeImage(upload.input, upload.name, EVENT_IMAGE_FOLDER, store) };
  } catch (error) {
    if (error instanceof ImageRejected) {
      return { ok: false, status: error.reason === "tooLarge" ? 413 : 400, message: error.message };
    }
    logger.error({ err: error }, "storing an event photo failed");
    return { ok: false, status: 503, message: EVENT_PHOTO_MESSAGES.storageFailed };
  }
}

/** Removes a photo stored for a save that did not happen (no row can name its new key). */
export async function discardEventPhoto(image: StoredImage | null, store: Storage = storage()): Promise<void> {
  if (!image) return;
  try {
    await deleteImage(image, store);
  } catch (error) {
    logger.error({ err: error, key: image.key }, "removing an unsaved event photo failed");
  }
}

/**
 * Removes a replaced or removed photo's files once no row names them (a
 * binned event's photo is still named, so it stays for a restore). A
 * failure is logged: the change stands, and the hourly sweep finds the files.
 */
export async function removeUnusedPhoto(image: StoredImage | null, store: Storage = storage()): Promise<void> {
  if (!image) return;
  try {
    const unused = await withDb((db) =>
      db.transaction(async (tx) => {
        await lockGalleryFiles(tx);
        return unreferencedImages(tx, [image]);
      }),
    );
    await deleteImageFiles(unused, store);
  } catch (error) {
    logger.error({ err: error, key: image.key }, "removing a replaced event photo failed");
  }
}
