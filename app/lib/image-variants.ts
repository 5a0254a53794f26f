/**
 * Naming of stored image files. A stored image is one large JPEG
 * (`folder/name.jpg`, at most LARGE_MAX px on its long side) plus WebP
 * variants `folder/name-{width}.webp`, AVIF variants of the same widths
 * `folder/name-{width}.avif`, and one JPEG for sharing
 * `folder/name-{width}.jpeg` (SHARE_WIDTH wide: social sites take neither
 * WebP nor huge files). Only the key and the large size are kept in the
 * database; the variant list follows from them.
 */

/**
 * 360, 640 and 720 fit a grid cell and a card on a phone at 1× and 2×. A
 * card is 294–346 px wide on a phone and browsers take the first file at
 * least as wide as the card times the screen's density: 640 px serves a
 * card up to 320 px at 2× and 365 px at 1.75× (a 375 px phone's card is
 * 309 px) at four fifths of the 720 px file's bytes, which the first
 * screen's photo needs on a slow connection. 480, 960 and 1600 were the
 * first widths, kept so files stored with them stay named. Images stored
 * before a width existed get it from a backfill at start
 * (app/features/images/variant-backfill.server.ts).
 */
export const VARIANT_WIDTHS = [360, 480, 640, 720, 960, 1600] as const;
export const LARGE_MAX = 2560;

/**
 * WebP quality of the variants. 60 rather than 72 saves about a fifth of
 * the bytes of a grainy phone photo (bench/variant-sizes.ts) with no
 * difference one sees at the size a variant is shown.
 */
export const WEBP_QUALITY = 60;

/**
 * AVIF quality of the variants. At 45 a grainy phone photo's 720 px file is
 * about a quarter smaller than the WebP at 60 (bench/variant-sizes.ts), and
 * AVIF blurs rather than blocks where it saves. Widths up to 720 px (cards,
 * grid cells, a phone's article photo) are shown small, where the grain 30
 * smooths away is not seen; at 30 they weigh less than half of what they do
 * at 45, so the first screen's photos reach a phone on a slow connection
 * in one round trip rather than two or three.
 * Effort 2 of 9 keeps the encoding to a fraction of a second per width;
 * higher efforts cost many times that for a few per cent.
 */
const AVIF_QUALITY = 45;
const AVIF_SMALL_QUALITY = 30;
const AVIF_SMALL_MAX = 720;

/** AVIF quality of the variant of this width. */
export function avifQuality(width: number): number {
  return width <= AVIF_SMALL_MAX ? AVIF_SMALL_QUALITY : AVIF_QUALITY;
}

/**
 * A phone photo's sensor grain, shrunk to a card's or a grid cell's size,
 * is too fine to see but still costs the encoder bytes: a grainy 12 MP
 * photo's 640 px AVIF weighs twice a clean one's. The widths up to
 * AVIF_SMALL_MAX (both formats) are therefore smoothed with a 3×3 median
 * after scaling, which drops single-pixel specks and keeps edges: about a
 * third fewer bytes for a grainy photo (bench/variant-sizes.ts), a few per cent
 * for a clean one, and no difference one sees at the size they are shown.
 * Wider variants, seen large, keep every pixel. Photos stored before keep
 * their files, which are right, only larger; nothing re-encodes them.
 */
const SMALL_MEDIAN = 3;

/** Size of the median filter applied to the variants of this width, or 0 for none. */
export function variantMedian(width: number): number {
  return width <= AVIF_SMALL_MAX ? SMALL_MEDIAN : 0;
}
export const AVIF_EFFORT = 2;

/** Widths of the WebP variants made for an image of this width (no upscaling). */
export function variantWidths(width: number): number[] {
  return [...new Set(VARIANT_WIDTHS.map((w) => Math.min(w, width)))];
}

export function variantKey(key: string, width: number): string {
  return `${key.replace(/\.jpg$/, "")}-${width}.webp`;
}

export function avifKey(key: string, width: number): string {
  return `${key.replace(/\.jpg$/, "")}-${width}.avif`;
}

export const SHARE_WIDTH = 1200;

/** Width of the sharing JPEG of an image this wide (no upscaling). */
export function shareWidth(width: number): number {
  return Math.min(SHARE_WIDTH, width);
}

/**
 * Key of the sharing JPEG. The `.jpeg` ending keeps it apart from every
 * large-JPEG key, which always ends in `.jpg` (an upload named
 * `x-1200.jpg` must not take the place of `x.jpg`'s variant).
 */
export function shareKey(key: string, width: number): string {
  return `${key.replace(/\.jpg$/, "")}-${shareWidth(width)}.jpeg`;
}

/** Every key belonging to a stored image, e.g. to delete it; none for an external image. */
export function allKeys(key: string, width: number): string[] {
  if (isExternalImage(key)) return [];
  const widths = variantWidths(width);
  return [key, ...widths.map((w) => variantKey(key, w)), ...widths.map((w) => avifKey(key, w)), shareKey(key, width)];
}

/**
 * What a <picture> needs: a fallback src, a srcset of WebP variants, one of
 * AVIF variants (empty until every stored photo has them), the size and
 * the large file.
 */
export interface ImageView {
  src: string;
  srcSet: string;
  avifSrcSet: string;
  width: number;
  height: number;
  full: string;
}

/**
 * A photo kept at its original address instead of in storage: the import from
 * the old site keeps the URL of an image it could not download. Such a "key"
 * is shown as a plain <img src> and never written to or deleted from storage.
 */
export function isExternalImage(key: string): boolean {
  return /^https?:\/\//i.test(key);
}

/** Size assumed for an external image (its real size is unknown): a 4:3 photo. */
export const EXTERNAL_IMAGE_SIZE = { width: 1200, height: 900 } as const;

/**
 * Origins allowed to serve external images (CSP img-src): the old site's
 * files were Firebase Storage download URLs.
 */
export const EXTERNAL_IMAGE_ORIGINS = ["https://firebasestorage.googleapis.com"] as const;
