/**
 * Makes a phone's photo small before it is sent (browser only, with the
 * platform's own decoder and a canvas): the orientation applied, at most
 * MAX_SIDE px on the long side, encoded as JPEG. A 12 MP photo of 5 MB
 * leaves as about 1 MB, and its EXIF (GPS included) stays behind, since a
 * canvas keeps only pixels. A HEIC photo the browser can decode (Safari)
 * leaves as a JPEG the server accepts.
 *
 * The server still checks and re-encodes everything: this only saves the
 * pastor's uplink and the server's memory. Whatever the browser can't
 * decode, and a photo that is already small, is sent as it is.
 */
export const MAX_SIDE = 2560;
export const JPEG_QUALITY = 0.85;
/** A photo within MAX_SIDE and at most this heavy is sent untouched. */
export const SMALL_BYTES = 1024 * 1024;

const SENT_AS_IS = new Set(["image/jpeg", "image/png", "image/webp"]);

function jpegName(name: string) {
  const dot = name.lastIndexOf(".");
  return `${dot > 0 ? name.slice(0, dot) : name}.jpg`;
}

async function encodeJpeg(bitmap: ImageBitmap, width: number, height: number): Promise<Blob | null> {
  if (typeof OffscreenCanvas !== "undefined") {
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext("2d");
    if (!context) return null;
    // A transparent PNG would turn black as a JPEG.
    context.fillStyle = "#fff";
    context.fillRect(0, 0, width, height);
    context.drawImage(bitmap, 0, 0, width, height);
    return canvas.convertToBlob({ type: "image/jpeg", quality: JPEG_QUALITY });
  }
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext("2d");
  if (!context) return null;
  context.fillStyle = "#fff";
  context.fillRect(0, 0, width, height);
  context.drawImage(bitmap, 0, 0, width, height);
  return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", JPEG_QUALITY));
}

/** The file to send for `file`: a smaller JPEG when that helps, else `file` itself. */
export async function shrinkPhoto(file: File): Promise<File> {
  if (typeof createImageBitmap !== "function") return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    // Not an image this browser can read (HEIC outside Safari, a PDF…): the server answers.
    return file;
  }
  try {
    const long = Math.max(bitmap.width, bitmap.height);
    const accepted = SENT_AS_IS.has(file.type);
    if (accepted && long <= MAX_SIDE && file.size <= SMALL_BYTES) return file;
    const scale = Math.min(1, MAX_SIDE / long);
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const blob = await encodeJpeg(bitmap, width, height).catch(() => null);
    if (!blob) return file;
    // Re-encoding a lean JPEG can make it heavier: then the original goes.
    if (accepted && blob.size >= file.size) return file;
    return new File([blob], jpegName(file.name), { type: "image/jpeg", lastModified: file.lastModified });
  } finally {
    bitmap.close();
  }
}

/** The same form with every chosen photo shrunk (see shrinkPhoto); other fields as they are. */
export async function shrinkFormPhotos(body: FormData): Promise<FormData> {
  const out = new FormData();
  for (const [name, value] of body.entries()) {
    if (typeof value !== "string" && value.size > 0 && (value.type === "" || value.type.startsWith("image/"))) {
      const file = await shrinkPhoto(value);
      out.append(name, file, file.name);
    } else if (typeof value === "string") {
      out.append(name, value);
    } else {
      out.append(name, value, value.name);
    }
  }
  return out;
}
