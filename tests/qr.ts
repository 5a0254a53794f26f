import jsQR from "jsqr";
import sharp from "sharp";

/** Decodes the QR code in an image (SVG, PNG, …) as a phone would: from its pixels. `size` rasterizes at that width. */
export async function decodeQr(image: Buffer | string, size?: number): Promise<string | null> {
  let pipeline = sharp(typeof image === "string" ? Buffer.from(image) : image);
  if (size) pipeline = pipeline.resize(size, size);
  const png = await pipeline.png().toBuffer();
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const found = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
  return found ? found.data : null;
}

/**
 * The error correction level written in the code's format information
 * (ISO/IEC 18004, the copy beside the top-left finder), read from an SVG
 * rendered at one pixel per module.
 */
export async function errorCorrectionLevel(svg: string, margin = 4): Promise<"L" | "M" | "Q" | "H"> {
  const modules = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const { data, info } = await sharp(Buffer.from(svg))
    .resize(modules, modules, { kernel: "nearest" })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const dark = (row: number, col: number) =>
    data[(row + margin) * info.width * info.channels + (col + margin) * info.channels] < 128;
  // Bits 14…0 in order.
  const cells: [number, number][] = [
    ...[0, 1, 2, 3, 4, 5, 7, 8].map((col): [number, number] => [8, col]),
    ...[7, 5, 4, 3, 2, 1, 0].map((row): [number, number] => [row, 8]),
  ];
  const bits = cells.reduce((acc, [row, col]) => (acc << 1) | (dark(row, col) ? 1 : 0), 0) ^ 0b101010000010010;
  return (["M", "L", "H", "Q"] as const)[bits >> 13];
}
