import sharp from "sharp";
import { type ImageView, LARGE_MAX, allKeys, variantKey, variantWidths } from "./lib/image-variants";

export type { ImageView };
import { type Storage, storage, uniqueKey } from "./storage.server";

export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
export const MAX_PIXELS = 50_000_000;

/** An upload that is not a usable photo; the message is shown to the pastor. */
export class ImageRejected extends Error {}

export interface StoredImage {
  key: string;
  width: number;
  height: number;
}

export interface ProcessedImage {
  width: number;
  height: number;
  large: Buffer;
  variants: { width: number; data: Buffer }[];
}

// A little memory per image; the pipeline handles one photo at a time.
sharp.cache(false);
sharp.concurrency(1);

/**
 * Checks that the bytes are a JPEG, PNG or WebP photo of sane size, turns it
 * upright and strips every piece of metadata (GPS included), then renders a
 * large JPEG and WebP variants.
 */
export async function processImage(input: Buffer): Promise<ProcessedImage> {
  if (input.length > MAX_UPLOAD_BYTES) {
    throw new ImageRejected("Plik jest za duży (maksymalnie 25 MB).");
  }
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejected("To nie jest obraz JPEG, PNG ani WebP.");
  }
  if (meta.format === "heif") {
    throw new ImageRejected(
      "Format HEIC nie jest obsługiwany. Na iPhonie wybierz Ustawienia → Aparat → Formaty → „Najbardziej zgodne” albo wyślij zdjęcie jako JPEG.",
    );
  }
  if (!meta.format || !["jpeg", "png", "webp"].includes(meta.format)) {
    throw new ImageRejected("To nie jest obraz JPEG, PNG ani WebP.");
  }
  if (!meta.width || !meta.height || meta.width * meta.height > MAX_PIXELS) {
    throw new ImageRejected("Zdjęcie ma za dużą rozdzielczość (maksymalnie 50 megapikseli).");
  }

  try {
    const upright = sharp(input, { limitInputPixels: MAX_PIXELS }).rotate();
    const { data: large, info } = await upright
      .clone()
      .resize({ width: LARGE_MAX, height: LARGE_MAX, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    const variants = [];
    for (const width of variantWidths(info.width)) {
      const data = await sharp(large).resize({ width }).webp({ quality: 72 }).toBuffer();
      variants.push({ width, data });
    }
    return { width: info.width, height: info.height, large, variants };
  } catch (error) {
    if (error instanceof ImageRejected) throw error;
    throw new ImageRejected("Nie udało się odczytać zdjęcia. Plik może być uszkodzony.");
  }
}

/** Processes a photo and stores all its files under `folder`, with a name not yet used. */
export async function storeImage(
  input: Buffer,
  originalName: string,
  folder: string,
  store: Storage = storage(),
): Promise<StoredImage> {
  const processed = await processImage(input);
  const key = await uniqueKey(store, folder, originalName, ".jpg");
  const written: string[] = [];
  try {
    for (const v of processed.variants) {
      const k = variantKey(key, v.width);
      await store.put(k, v.data, "image/webp");
      written.push(k);
    }
    // The large file last: its presence marks the name as taken and complete.
    await store.put(key, processed.large, "image/jpeg");
  } catch (error) {
    await Promise.allSettled(written.map((k) => store.delete(k)));
    throw error;
  }
  return { key, width: processed.width, height: processed.height };
}

export async function deleteImage(image: StoredImage, store: Storage = storage()) {
  await Promise.all(allKeys(image.key, image.width).map((k) => store.delete(k)));
}


export function imageView(image: StoredImage, store: Storage = storage()): ImageView {
  const widths = variantWidths(image.width);
  const srcSet = widths.map((w) => `${store.publicUrl(variantKey(image.key, w))} ${w}w`).join(", ");
  const fallback = widths.find((w) => w >= 960) ?? widths[widths.length - 1];
  return {
    src: store.publicUrl(variantKey(image.key, fallback)),
    srcSet,
    width: image.width,
    height: image.height,
    full: store.publicUrl(image.key),
  };
}
