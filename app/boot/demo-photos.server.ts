// The demo content's photos, drawn from shapes (no third-party images, so no
// licence questions). Encoding them (AVIF above all) took half a minute of
// CPU at every fresh start, so `npm run demo:photos` encodes them once into
// demo/photos/ and seeding copies those files into storage.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { avifKey, shareKey, variantKey, variantWidths } from "~/lib/image-variants";
import { ENCODER_SETTINGS, type ProcessedImage } from "~/services/images.server";

/** What a demo picture looks like: its colours' hue, the hills' and sun's arrangement, its size. */
export interface DemoPhotoSpec {
  hue: number;
  variant: number;
  width: number;
  height: number;
}

/** The picture's source JPEG quality, before the upload pipeline encodes it like any photo. */
const SOURCE_JPEG_QUALITY = 85;

function demoSvg({ hue, variant, width, height }: DemoPhotoSpec): string {
  const sky = `hsl(${hue},70%,75%)`;
  const skyLow = `hsl(${(hue + 30) % 360},80%,90%)`;
  const hill = `hsl(${(hue + 120) % 360},35%,${40 + (variant % 3) * 8}%)`;
  const hill2 = `hsl(${(hue + 140) % 360},40%,${28 + (variant % 2) * 6}%)`;
  const sunX = 0.2 + ((variant * 0.23) % 0.6);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky}"/><stop offset="1" stop-color="${skyLow}"/></linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#s)"/>
  <circle cx="${width * sunX}" cy="${height * 0.3}" r="${height * 0.11}" fill="hsl(45,100%,70%)"/>
  <path d="M0 ${height * 0.7} Q ${width * 0.3} ${height * 0.45} ${width * 0.6} ${height * 0.68} T ${width} ${height * 0.6} V ${height} H 0 Z" fill="${hill}"/>
  <path d="M0 ${height * 0.85} Q ${width * 0.4} ${height * 0.7} ${width} ${height * 0.88} V ${height} H 0 Z" fill="${hill2}"/>
</svg>`;
}

/** The picture as a JPEG, as a camera would hand it to the upload pipeline. */
export function demoPicture(spec: DemoPhotoSpec): Promise<Buffer> {
  return sharp(Buffer.from(demoSvg(spec)))
    .jpeg({ quality: SOURCE_JPEG_QUALITY })
    .toBuffer();
}

/** The picture's large file's name in demo/photos/; its variants follow the stored images' naming. */
export function demoPhotoFile(spec: DemoPhotoSpec): string {
  return `h${spec.hue}-v${spec.variant}-${spec.width}x${spec.height}.jpg`;
}

/** Every file of one picture in demo/photos/. */
export function demoPhotoFiles(spec: DemoPhotoSpec): string[] {
  const file = demoPhotoFile(spec);
  const widths = variantWidths(spec.width);
  return [
    file,
    ...widths.map((w) => variantKey(file, w)),
    ...widths.map((w) => avifKey(file, w)),
    shareKey(file, spec.width),
  ];
}

/**
 * A digest of everything the files follow from: each picture's drawing and
 * the encoder's settings. demo/photos/manifest.json records the digest the
 * files were made with; a test compares it with this one.
 */
export function demoPhotosDigest(specs: DemoPhotoSpec[]): string {
  const inputs = { pictures: specs.map(demoSvg), sourceJpegQuality: SOURCE_JPEG_QUALITY, encoder: ENCODER_SETTINGS };
  return createHash("sha256").update(JSON.stringify(inputs)).digest("hex");
}

export interface DemoPhotosManifest {
  digest: string;
  files: string[];
}

/**
 * The demo/photos/ folder: the nearest one above this module, which is
 * app/boot/ in sources and tests and build/ in the server bundle.
 */
export function demoPhotosDir(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "demo", "photos");
    if (fs.existsSync(path.join(candidate, "manifest.json"))) return candidate;
    if (path.dirname(dir) === dir)
      throw new Error("demo/photos/manifest.json not found (npm run demo:photos makes it)");
  }
}

/** A picture's files from demo/photos/, ready to be stored like a processed upload. */
export async function readDemoPhoto(spec: DemoPhotoSpec, dir = demoPhotosDir()): Promise<ProcessedImage> {
  const file = demoPhotoFile(spec);
  const read = (name: string) => fs.promises.readFile(path.join(dir, name));
  const variants = [];
  for (const width of variantWidths(spec.width)) {
    variants.push({ width, data: await read(variantKey(file, width)), avif: await read(avifKey(file, width)) });
  }
  return {
    width: spec.width,
    height: spec.height,
    large: await read(file),
    variants,
    share: await read(shareKey(file, spec.width)),
  };
}
