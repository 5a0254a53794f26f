// An article's photo: stored before the row that names it, removed only
// once no row names it any more.
import { eq } from "drizzle-orm";
import { articles } from "~/services/schema";
import { withDb } from "~/services/db.server";
import {
  type ImageInput,
  ImageRejected,
  type ImageView,
  type StoredImage,
  deleteImage,
  imageView,
  storeImage,
} from "~/services/images.server";
import { logger } from "~/services/logger.server";
import type { Storage } from "~/services/storage.server";
import { ARTICLE_MESSAGES } from "~/features/articles/messages";
import type { SaveRefusal } from "~/features/articles/save-result";

/** Storage folder of article photos (the original split root/'images/' by add/edit; one folder is enough). */
export const ARTICLE_IMAGE_FOLDER = "aktualnosci";

/** A photo sent with the form: a temporary file (or bytes) and the name the browser gave it. */
export interface ArticleImageUpload {
  input: ImageInput;
  name: string;
}

type PhotoColumns = { imageKey: string | null; imageWidth: number | null; imageHeight: number | null };

/** The stored photo a row names, or null when it names none. */
export const storedImageOf = (row: PhotoColumns): StoredImage | null =>
  row.imageKey && row.imageWidth && row.imageHeight
    ? { key: row.imageKey, width: row.imageWidth, height: row.imageHeight }
    : null;

/** The photo as a page shows it. */
export function toImage(row: PhotoColumns): ImageView | null {
  const stored = storedImageOf(row);
  return stored ? imageView(stored) : null;
}

/** Stores the photo; a refusal or a storage failure becomes the message the form shows. */
export async function storeArticleImage(
  upload: ArticleImageUpload,
  store: Storage,
): Promise<{ ok: true; image: StoredImage } | SaveRefusal> {
  try {
    return { ok: true, image: await storeImage(upload.input, upload.name, ARTICLE_IMAGE_FOLDER, store) };
  } catch (error) {
    if (error instanceof ImageRejected) {
      return { ok: false, status: error.reason === "tooLarge" ? 413 : 400, message: error.message, fields: ["image"] };
    }
    logger.error({ err: error }, "storing an article photo failed");
    return { ok: false, status: 503, message: ARTICLE_MESSAGES.storageFailed, fields: ["image"] };
  }
}

/**
 * Removes a photo's files once no article points to them any more. Runs
 * after the database change has committed; a failure leaves unused files
 * behind (logged), never a row without its files.
 */
export async function removeImageFiles(image: StoredImage, store: Storage) {
  try {
    const [stillUsed] = await withDb((db) =>
      db.select({ id: articles.id }).from(articles).where(eq(articles.imageKey, image.key)).limit(1),
    );
    if (stillUsed) return;
    await deleteImage(image, store);
  } catch (error) {
    logger.error({ err: error, key: image.key }, "removing an article photo failed");
  }
}

/** Removes a photo stored for a save that did not happen (no row can point to its new key). */
export async function discardImage(image: StoredImage, store: Storage) {
  try {
    await deleteImage(image, store);
  } catch (error) {
    logger.error({ err: error, key: image.key }, "removing an unsaved article photo failed");
  }
}
