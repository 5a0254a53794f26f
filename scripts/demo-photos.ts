// `npm run demo:photos`: encodes the demo content's pictures through the
// upload pipeline into demo/photos/, with a manifest of the inputs' digest
// (tests/unit/demo-photos.test.ts fails when the files are out of step).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  type DemoPhotosManifest,
  demoPhotoFile,
  demoPhotoFiles,
  demoPhotosDigest,
  demoPicture,
} from "~/boot/demo-photos.server";
import { demoPhotoSpecs } from "~/boot/seed.server";
import { avifKey, shareKey, variantKey } from "~/lib/image-variants";
import { processImage } from "~/services/images.server";

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "demo", "photos");
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });

const specs = demoPhotoSpecs();
const files: string[] = [];
for (const spec of specs) {
  const file = demoPhotoFile(spec);
  if (files.includes(file)) continue; // two uses of one picture share its files
  const processed = await processImage(await demoPicture(spec));
  // The seed reads the size from the spec: the pipeline must keep it.
  if (processed.width !== spec.width || processed.height !== spec.height) {
    throw new Error(`${file}: encoded as ${processed.width}×${processed.height}`);
  }
  fs.writeFileSync(path.join(dir, file), processed.large);
  for (const v of processed.variants) {
    fs.writeFileSync(path.join(dir, variantKey(file, v.width)), v.data);
    fs.writeFileSync(path.join(dir, avifKey(file, v.width)), v.avif);
  }
  fs.writeFileSync(path.join(dir, shareKey(file, spec.width)), processed.share);
  files.push(...demoPhotoFiles(spec));
  console.log(file);
}
const manifest: DemoPhotosManifest = { digest: demoPhotosDigest(specs), files: files.sort() };
fs.writeFileSync(path.join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
