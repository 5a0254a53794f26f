// Bytes of each WebP variant of the bench's photo-like pictures, at the old
// quality (72) and the current one, and of the AVIF variant as the app makes
// it (median-smoothed where variantMedian says) and without the smoothing,
// with the time AVIF takes to encode.
// Run: node --import tsx bench/variant-sizes.ts [photos=6] [width=4000]
import sharp from "sharp";
import { benchPhoto } from "./photos";
import { AVIF_EFFORT, VARIANT_WIDTHS, WEBP_QUALITY, avifQuality, variantMedian } from "../app/lib/image-variants";

const count = Number(process.argv[2] ?? 6);
const width = Number(process.argv[3] ?? 4000);
const height = Math.round((width * 3) / 4);
const qualities = [...new Set([72, WEBP_QUALITY])];
const totals = new Map<string, number>();
const add = (k: string, n: number) => totals.set(k, (totals.get(k) ?? 0) + n);

for (let i = 0; i < count; i++) {
  // Phone-sized original, stored as the app stores it: a large JPEG first.
  const photo = await benchPhoto(i, width, height);
  const large = await sharp(photo)
    .resize({ width: 2560, height: 2560, fit: "inside" })
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
  for (const w of VARIANT_WIDTHS) {
    for (const q of qualities) {
      const data = await sharp(large).resize({ width: w }).webp({ quality: q }).toBuffer();
      add(`${w}@${q}`, data.length);
    }
    const scaled = () => sharp(large).resize({ width: w });
    const median = variantMedian(w);
    const started = performance.now();
    const avif = await (median ? scaled().median(median) : scaled())
      .avif({ quality: avifQuality(w), effort: AVIF_EFFORT })
      .toBuffer();
    add(`${w}@avif-ms`, performance.now() - started);
    add(`${w}@avif`, avif.length);
    const plain = median
      ? await scaled()
          .avif({ quality: avifQuality(w), effort: AVIF_EFFORT })
          .toBuffer()
      : avif;
    add(`${w}@avif-plain`, plain.length);
  }
}

console.log(`${count} photos ${width}×${height}, average bytes per variant`);
const avifHead = `AVIF (effort ${AVIF_EFFORT})`;
console.log(
  `| width | ${qualities.map((q) => `WebP q${q}`).join(" | ")} | ${avifHead} | AVIF without the median | AVIF encode |`,
);
console.log(`|---:|${qualities.map(() => "---:").join("|")}|---:|---:|---:|`);
const kib = (k: string) => `${((totals.get(k) ?? 0) / count / 1024).toFixed(1)} KiB`;
for (const w of VARIANT_WIDTHS) {
  const cells = qualities.map((q) => kib(`${w}@${q}`));
  const ms = `${Math.round((totals.get(`${w}@avif-ms`) ?? 0) / count)} ms`;
  const m = variantMedian(w) ? `, median ${variantMedian(w)}` : "";
  console.log(
    `| ${w} | ${cells.join(" | ")} | ${kib(`${w}@avif`)} at q${avifQuality(w)}${m} | ${kib(`${w}@avif-plain`)} | ${ms} |`,
  );
}
