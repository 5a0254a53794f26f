import fs from "node:fs/promises";
import sharp, { type Metadata, type Sharp } from "sharp";
import {
  AVIF_EFFORT,
  type ImageView,
  LARGE_MAX,
  SHARE_WIDTH,
  VARIANT_WIDTHS,
  WEBP_QUALITY,
  allKeys,
  avifKey,
  avifQuality,
  variantMedian,
  isExternalImage,
  shareKey,
  shareWidth,
  variantKey,
  variantWidths,
} from "~/lib/image-variants";
import { type Storage, reserveUniqueKey, storage } from "~/services/storage.server";
import { memoryQueue } from "~/services/memory-queue.server";

export type { ImageView };

export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
export const MAX_PIXELS = 50_000_000;

export const IMAGE_MESSAGES = {
  tooLarge: "Plik jest za duży (maksymalnie 25 MB).",
  tooManyPixels: "Zdjęcie ma za dużą rozdzielczość (maksymalnie 50 megapikseli).",
  heic: "Format HEIC nie jest obsługiwany. Wyślij zdjęcie jako JPEG: na iPhonie wybierz Ustawienia → Aparat → Formaty → „Najbardziej zgodne”.",
  notImage: "To nie jest zdjęcie w formacie JPEG, PNG ani WebP.",
  broken: "Nie udało się odczytać zdjęcia. Plik może być uszkodzony.",
} as const;

export type ImageRejectionReason = keyof typeof IMAGE_MESSAGES;

/** An upload that is not a usable photo; the message is shown to the pastor. */
export class ImageRejected extends Error {
  constructor(readonly reason: ImageRejectionReason) {
    super(IMAGE_MESSAGES[reason]);
    this.name = "ImageRejected";
  }
}

/** The photo's bytes, or the path of a file on local disk (an upload streamed to a temp file). */
export type ImageInput = Buffer | string;

export interface StoredImage {
  key: string;
  width: number;
  height: number;
}

export interface ProcessedImage {
  width: number;
  height: number;
  large: Buffer;
  /** Each width in WebP and in AVIF. */
  variants: { width: number; data: Buffer; avif: Buffer }[];
  /** The JPEG for link previews on social sites. */
  share: Buffer;
}

// A little memory per image: no libvips cache, one thread per photo.
sharp.cache(false);
sharp.concurrency(1);

// Image work runs within this budget (estimated bytes of the jobs running
// together, imageJobBytes): a full-size photo is rendered alone and a few
// small ones together, so a small server (256 MB) stays flat however many
// uploads arrive at once (the others wait their turn, first come first served).
export const IMAGE_MEMORY_BUDGET = 64 * 1024 * 1024;
const queue = memoryQueue(IMAGE_MEMORY_BUDGET);
/** Decoded bytes of a picture of this size, as RGBA. */
const pixelBytes = (width: number, height: number) => width * height * 4;

// The AVIF encoder, not the decoded photo, is most of what a render holds:
// measured in a process set up as the server (sharp settings above,
// MALLOC_ARENA_MAX=2), encoding a 1600 px wide AVIF raised the peak RSS by
// 65 MB and a 960 px one by 28 MB, about 35–40 bytes per pixel, while a
// 2560 px photo decodes to 19 MB. Counting decoded pixels alone let three
// phone photos shrunk to 2560 px render together and the server peak above
// 256 MB; with this estimate such a photo (about 150 MB) renders alone.
const AVIF_BYTES_PER_PIXEL = 40;

/** Pixels of a variant `width` px wide of a picture `w`×`h` (never wider than the picture). */
const variantPixels = (width: number, w: number, h: number) => {
  const vw = Math.min(width, w);
  return vw * Math.round((h * vw) / w);
};

/**
 * What rendering a photo of this size (as stored, before autoOrient) holds
 * at its peak, roughly: its decoded pixels plus the AVIF encoder's buffers
 * for its widest variant, taken the taller way round, since an EXIF
 * orientation may stand the photo upright and a portrait variant is taller.
 */
export function imageJobBytes(
  width: number,
  height: number,
  variantWidth: number = VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1],
): number {
  const scale = Math.min(1, LARGE_MAX / Math.max(width, height));
  const [w, h] = [Math.round(width * scale), Math.round(height * scale)];
  const avif = Math.max(variantPixels(variantWidth, w, h), variantPixels(variantWidth, h, w));
  return pixelBytes(width, height) + AVIF_BYTES_PER_PIXEL * avif;
}

type Sniffed = "jpeg" | "png" | "webp" | "heif" | null;

const HEIF_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1", "mif2"]);
const AVIF_BRANDS = new Set(["avif", "avis"]);

/**
 * The format the first bytes announce. Only these formats are ever handed to
 * libvips, which would otherwise also parse SVG, TIFF, RAW and more.
 */
export function sniffImageFormat(head: Buffer): Sniffed {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "jpeg";
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";
  if (head.toString("latin1", 0, 4) === "RIFF" && head.toString("latin1", 8, 12) === "WEBP") return "webp";
  // ISO base media file: [size]["ftyp"][major brand][minor version][compatible brands…]
  if (head.length >= 12 && head.toString("latin1", 4, 8) === "ftyp") {
    const boxEnd = Math.min(head.readUInt32BE(0), head.length);
    const brands = [head.toString("latin1", 8, 12)];
    for (let at = 16; at + 4 <= boxEnd; at += 4) brands.push(head.toString("latin1", at, at + 4));
    if (brands.some((b) => AVIF_BRANDS.has(b))) return null;
    if (brands.some((b) => HEIF_BRANDS.has(b))) return "heif";
  }
  return null;
}

async function sizeAndHead(input: ImageInput): Promise<{ size: number; head: Buffer }> {
  if (Buffer.isBuffer(input)) return { size: input.length, head: input.subarray(0, 64) };
  const file = await fs.open(input, "r");
  try {
    const { size } = await file.stat();
    const head = Buffer.alloc(Math.min(64, size));
    await file.read(head, 0, head.length, 0);
    return { size, head };
  } finally {
    await file.close();
  }
}

/**
 * Checks that the bytes are a JPEG, PNG or WebP photo of sane size (from the
 * file size and the header only, before anything is decoded), turns it
 * upright and renders a large JPEG and WebP variants that carry no metadata
 * at all (no EXIF, no GPS; colours converted to sRGB).
 */
export async function processImage(input: ImageInput): Promise<ProcessedImage> {
  const meta = await checkImage(input);
  return queue.run(imageJobBytes(meta.width, meta.height), () => render(input));
}

/**
 * The checks of an upload without the rendering: a JPEG, PNG or WebP of sane
 * size whose header decodes. Throws ImageRejected otherwise. Used too for
 * bytes kept to be processed later, so nothing else is ever stored.
 */
export async function checkImage(input: ImageInput): Promise<{ width: number; height: number }> {
  const { size, head } = await sizeAndHead(input);
  if (size > MAX_UPLOAD_BYTES) throw new ImageRejected("tooLarge");
  const format = sniffImageFormat(head);
  if (format === "heif") throw new ImageRejected("heic");
  if (!format) throw new ImageRejected("notImage");

  let meta: Metadata;
  try {
    // Reads the header only; the pixel limit is checked below with a clear message.
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejected("broken");
  }
  if (meta.format !== format) throw new ImageRejected("notImage");
  if (!meta.width || !meta.height) throw new ImageRejected("broken");
  if (meta.width * meta.height > MAX_PIXELS) throw new ImageRejected("tooManyPixels");
  return { width: meta.width, height: meta.height };
}

const LARGE_JPEG = { quality: 82, mozjpeg: true } as const;
const SHARE_JPEG = { quality: 80, mozjpeg: true } as const;

/**
 * Every setting that decides the bytes of a stored image's files: the demo
 * photos made beforehand (demo/photos/manifest.json) record them, so a
 * change here shows that those files must be made again.
 */
export const ENCODER_SETTINGS = {
  largeMax: LARGE_MAX,
  largeJpeg: LARGE_JPEG,
  shareJpeg: SHARE_JPEG,
  shareWidth: SHARE_WIDTH,
  variantWidths: VARIANT_WIDTHS,
  webpQuality: WEBP_QUALITY,
  avifQuality: VARIANT_WIDTHS.map(avifQuality),
  avifEffort: AVIF_EFFORT,
  variantMedian: VARIANT_WIDTHS.map(variantMedian),
} as const;

async function render(input: ImageInput): Promise<ProcessedImage> {
  try {
    // failOn "error": some phones write JPEGs with harmless libjpeg warnings
    // (extraneous bytes before a marker) that the default would refuse.
    // No withMetadata/keepExif: sharp's output then carries no metadata.
    const { data: large, info } = await sharp(input, { limitInputPixels: MAX_PIXELS, failOn: "error" })
      .autoOrient()
      .resize({ width: LARGE_MAX, height: LARGE_MAX, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .toColourspace("srgb")
      .jpeg(LARGE_JPEG)
      .toBuffer({ resolveWithObject: true });
    const variants = [];
    for (const width of variantWidths(info.width)) {
      variants.push({ width, data: await renderWebp(large, width), avif: await renderAvif(large, width) });
    }
    return { width: info.width, height: info.height, large, variants, share: await renderShare(large, info.width) };
  } catch {
    throw new ImageRejected("broken");
  }
}

/** The large JPEG scaled to a variant's width, smoothed as variantMedian says (sharp filters after scaling). */
function scaled(large: Buffer, width: number): Sharp {
  const median = variantMedian(width);
  const image = sharp(large).resize({ width });
  return median ? image.median(median) : image;
}

function renderWebp(large: Buffer, width: number): Promise<Buffer> {
  return scaled(large, width).webp({ quality: WEBP_QUALITY }).toBuffer();
}

function renderAvif(large: Buffer, width: number): Promise<Buffer> {
  return scaled(large, width)
    .avif({ quality: avifQuality(width), effort: AVIF_EFFORT })
    .toBuffer();
}

function renderShare(large: Buffer | string, width: number): Promise<Buffer> {
  return sharp(large)
    .resize({ width: shareWidth(width) })
    .jpeg(SHARE_JPEG)
    .toBuffer();
}

/**
 * Makes the sharing JPEG of an image stored before such files existed, from
 * its large JPEG. Returns false when it was already there (or the large file
 * is missing); idempotent, so any number of runs may overlap.
 */
export async function ensureShareImage(image: StoredImage, store: Storage = storage()): Promise<boolean> {
  if (isExternalImage(image.key)) return false;
  const key = shareKey(image.key, image.width);
  if (await store.exists(key)) return false;
  const large = await readAll(store, image.key);
  if (!large) return false;
  const data = await queue.run(pixelBytes(image.width, image.height), () => renderShare(large, image.width));
  await store.put(key, data, "image/jpeg");
  return true;
}

async function readAll(store: Storage, key: string): Promise<Buffer | null> {
  const file = await store.get(key);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of file.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const FORMATS = {
  webp: { key: variantKey, render: renderWebp, contentType: "image/webp" },
  avif: { key: avifKey, render: renderAvif, contentType: "image/avif" },
} as const;

export type VariantFormat = keyof typeof FORMATS;

/** The widths of a stored image's variants in this format that storage lacks (none for an external image). */
export async function missingWidths(image: StoredImage, format: VariantFormat, store: Storage = storage()) {
  if (isExternalImage(image.key)) return [];
  const missing: number[] = [];
  for (const width of variantWidths(image.width)) {
    if (!(await store.exists(FORMATS[format].key(image.key, width)))) missing.push(width);
  }
  return missing;
}

/**
 * Makes the variants in this format that an image stored before they
 * existed lacks, from its large JPEG, and returns how many it made (none
 * when all were there or the large file is missing). Idempotent: a run that
 * overlaps another at worst writes the same bytes twice.
 */
export async function ensureVariants(
  image: StoredImage,
  format: VariantFormat,
  store: Storage = storage(),
): Promise<number> {
  const missing = await missingWidths(image, format, store);
  if (missing.length === 0) return 0;
  const large = await readAll(store, image.key);
  if (!large) return 0;
  const { key, render, contentType } = FORMATS[format];
  for (const width of missing) {
    const data = await queue.run(imageJobBytes(image.width, image.height, width), () => render(large, width));
    await store.put(key(image.key, width), data, contentType);
  }
  return missing.length;
}

/**
 * Whether pages offer the AVIF variants. Off until this process knows every
 * stored photo has them (app/features/images/variant-backfill.server.ts): a
 * browser that picks a file from a <source> does not fall back to the <img>
 * when that file is missing.
 */
let avifOffered = false;

export function offerAvif(on: boolean) {
  avifOffered = on;
}

/** Processes a photo and stores all its files under `folder`, with a name not yet used. */
export async function storeImage(
  input: ImageInput,
  originalName: string,
  folder: string,
  store: Storage = storage(),
): Promise<StoredImage> {
  return storeProcessedImage(await processImage(input), originalName, folder, store);
}

/**
 * Stores files made beforehand (the demo photos: app/boot/demo-photos.server.ts)
 * under `folder`, with a name not yet used; nothing is decoded or encoded.
 */
export async function storeProcessedImage(
  processed: ProcessedImage,
  originalName: string,
  folder: string,
  store: Storage = storage(),
): Promise<StoredImage> {
  const { key, release } = await reserveUniqueKey(store, folder, originalName, ".jpg");
  try {
    await writeImageFiles(processed, key, store);
  } finally {
    release();
  }
  return { key, width: processed.width, height: processed.height };
}

/**
 * Processes a photo and stores it under a key the caller chose (the import
 * derives keys from document ids, so a rerun rewrites the same files).
 */
export async function storeImageAt(input: ImageInput, key: string, store: Storage = storage()): Promise<StoredImage> {
  const processed = await processImage(input);
  await writeImageFiles(processed, key, store);
  return { key, width: processed.width, height: processed.height };
}

async function writeImageFiles(processed: ProcessedImage, key: string, store: Storage) {
  const written: string[] = [];
  try {
    for (const v of processed.variants) {
      const k = variantKey(key, v.width);
      await store.put(k, v.data, "image/webp");
      written.push(k);
      const a = avifKey(key, v.width);
      await store.put(a, v.avif, "image/avif");
      written.push(a);
    }
    const share = shareKey(key, processed.width);
    await store.put(share, processed.share, "image/jpeg");
    written.push(share);
    // The large file last: its presence marks the name as taken and complete.
    await store.put(key, processed.large, "image/jpeg");
  } catch (error) {
    await Promise.allSettled(written.map((k) => store.delete(k)));
    throw error;
  }
}

export async function deleteImage(image: StoredImage, store: Storage = storage()) {
  await Promise.all(allKeys(image.key, image.width).map((k) => store.delete(k)));
}

/** Where social sites fetch the image from, and its size (a path on disk storage, absolute on S3). */
export function shareImage(image: StoredImage, store: Storage = storage()): ShareImage {
  // A photo left at its original address is shared as it is.
  if (isExternalImage(image.key)) return { url: image.key, width: image.width, height: image.height };
  const width = shareWidth(image.width);
  return {
    url: store.publicUrl(shareKey(image.key, image.width)),
    width,
    height: Math.round((image.height * width) / image.width),
  };
}

export interface ShareImage {
  url: string;
  width: number;
  height: number;
}

export function imageView(image: StoredImage, store: Storage = storage()): ImageView {
  // No variants exist for a photo left at its original address.
  if (isExternalImage(image.key)) {
    return { src: image.key, srcSet: "", avifSrcSet: "", width: image.width, height: image.height, full: image.key };
  }
  const widths = variantWidths(image.width);
  const srcSet = widths.map((w) => `${store.publicUrl(variantKey(image.key, w))} ${w}w`).join(", ");
  const avifSrcSet = avifOffered ? widths.map((w) => `${store.publicUrl(avifKey(image.key, w))} ${w}w`).join(", ") : "";
  const fallback = widths.find((w) => w >= 960) ?? widths[widths.length - 1];
  return {
    src: store.publicUrl(variantKey(image.key, fallback)),
    srcSet,
    avifSrcSet,
    width: image.width,
    height: image.height,
    full: store.publicUrl(image.key),
  };
}
