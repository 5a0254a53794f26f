// Keys: derived from the document and the URL, so a rerun writes the same
// files, and a different photo never reuses a key (keys are cached for good).
import { createHash } from "node:crypto";
import { ARTICLE_IMAGE_FOLDER } from "~/features/articles/article-photos.server";
import { GALLERY_FOLDER } from "~/features/galleries/galleries.server";
import { safeFileName } from "~/services/storage.server";

/** Storage folder of history photos (as the demo content uses). */
export const HISTORY_FOLDER = "historia";

const hash = (value: string) => createHash("sha256").update(value).digest("hex").slice(0, 10);
const part = (value: string, max: number) => safeFileName(value).replace(/\./g, "-").slice(0, max) || "zdjecie";

export function articleImageKey(id: string, url: string): string {
  return `${ARTICLE_IMAGE_FOLDER}/firebase-${id}-${hash(url)}.jpg`;
}

export function galleryImageKey(title: string, name: string, url: string): string {
  return `${GALLERY_FOLDER}/firebase-${part(title, 40)}-${hash(title)}/${part(name, 60)}-${hash(url)}.jpg`;
}

export function historyImageKey(docId: string, url: string): string {
  return `${HISTORY_FOLDER}/firebase-${part(docId, 40)}-${hash(`${docId}\n${url}`)}.jpg`;
}
