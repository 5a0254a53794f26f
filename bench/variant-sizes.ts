// Bytes of each WebP variant of the bench's photo-like pictures, at the old
// quality (72) and the current one, and the file a phone's browser picks.
// Run: node --import tsx bench/variant-sizes.ts [photos=6] [width=4000]
import sharp from "sharp";
import { benchPhoto } from "./photos";
import { VARIANT_WIDTHS, WEBP_QUALITY } from "../app/lib/image-variants";

const count = Number(process.argv[2] ?? 6);
const width = Number(process.argv[3] ?? 4000);
const height = Math.round((width * 3) / 4);
const qualities = [...new Set([72, WEBP_QUALITY])];
const totals = new Map<string, number>();

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
      totals.set(`${w}@${q}`, (totals.get(`${w}@${q}`) ?? 0) + data.length);
    }
  }
}

console.log(`${count} photos ${width}×${height}, average bytes per variant`);
console.log(`| width | ${qualities.map((q) => `q${q}`).join(" | ")} |`);
console.log(`|---:|${qualities.map(() => "---:").join("|")}|`);
for (const w of VARIANT_WIDTHS) {
  const cells = qualities.map((q) => `${((totals.get(`${w}@${q}`) ?? 0) / count / 1024).toFixed(1)} KiB`);
  console.log(`| ${w} | ${cells.join(" | ")} |`);
}
