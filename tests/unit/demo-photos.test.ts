// The demo photos are encoded once (`npm run demo:photos`) and committed:
// these checks fail when a picture, the list of pictures or an encoder
// setting changed without the files being made again.
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import {
  type DemoPhotosManifest,
  demoPhotoFile,
  demoPhotoFiles,
  demoPhotosDigest,
  demoPhotosDir,
} from "~/boot/demo-photos.server";
import { demoPhotoSpecs } from "~/boot/seed.server";

const dir = demoPhotosDir();
const manifest: DemoPhotosManifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8"));
const REMAKE = "demo/photos/ is out of step with its inputs: run `npm run demo:photos` and commit the result";

describe("demo/photos", () => {
  it("was made from today's pictures and encoder settings", () => {
    expect(manifest.digest, REMAKE).toBe(demoPhotosDigest(demoPhotoSpecs()));
  });

  it("holds exactly the files the seed reads", () => {
    const expected = [...new Set(demoPhotoSpecs().flatMap(demoPhotoFiles))].sort();
    expect(manifest.files, REMAKE).toEqual(expected);
    const present = fs.readdirSync(dir).filter((f) => f !== "manifest.json");
    expect(present.sort(), REMAKE).toEqual(expected);
  });

  it("has each large photo at the size the seed records", async () => {
    for (const spec of demoPhotoSpecs()) {
      const meta = await sharp(path.join(dir, demoPhotoFile(spec))).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
        format: "jpeg",
        width: spec.width,
        height: spec.height,
      });
    }
  });
});
