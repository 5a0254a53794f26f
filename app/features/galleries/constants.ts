/** One file of a batch that was not added, and why (a lower-case clause). */
export interface RefusedFile {
  name: string;
  reason: string;
}

/**
 * The outcome of a batch of photos in one line, the same with and without
 * JavaScript: '7 z 8 zdjęć dodano; IMG_0042.HEIC: format HEIC nie jest obsługiwany'.
 */
export function batchReport(total: number, refused: RefusedFile[]): string {
  const head = `${total - refused.length} z ${total} ${total === 1 ? "zdjęcia" : "zdjęć"} dodano`;
  return [head, ...refused.map((r) => `${r.name}: ${r.reason}`)].join("; ");
}

/** The question before an album is deleted, worded as on the original site. */
export const DELETE_GALLERY_QUESTION = "Czy napewno chcesz usunąć galerię?";

/** What a screen reader says of an album photo the pastor gave no description. */
export const defaultPhotoAlt = (albumTitle: string, position: number) => `Zdjęcie ${position} z galerii ${albumTitle}`;

/** Longest photo description kept; the editor's field stops there too. */
export const ALT_MAX = 250;
