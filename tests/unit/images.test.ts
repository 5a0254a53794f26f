import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { ImageRejected, imageView, processImage, storeImage } from "~/images.server";
import { variantKey } from "~/lib/image-variants";
import { diskStorage } from "~/storage.server";

const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#3366aa" } }).jpeg().toBuffer();

describe("image pipeline", () => {
  it("makes WebP variants no wider than the photo and a large JPEG", async () => {
    const out = await processImage(await jpeg(2000, 1500));
    expect([out.width, out.height]).toEqual([2000, 1500]);
    expect(out.variants.map((v) => v.width)).toEqual([480, 960, 1600]);
    for (const v of out.variants) expect((await sharp(v.data).metadata()).format).toBe("webp");
    expect((await sharp(out.large).metadata()).format).toBe("jpeg");

    const small = await processImage(await jpeg(600, 400));
    expect(small.variants.map((v) => v.width)).toEqual([480, 600]);
  });

  it("refuses text pretending to be a photo", async () => {
    await expect(processImage(Buffer.from("to nie jest zdjęcie"))).rejects.toThrow(ImageRejected);
  });

  it("stores all files and describes them for <img srcset>", async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-img-"));
    const store = diskStorage(root);
    const image = await storeImage(await jpeg(1200, 800), "Obóz.jpg", "galeria", store);
    expect(image).toEqual({ key: "galeria/Oboz.jpg", width: 1200, height: 800 });
    for (const w of [480, 960, 1200]) expect(await store.exists(variantKey(image.key, w))).toBe(true);
    const again = await storeImage(await jpeg(1200, 800), "Obóz.jpg", "galeria", store);
    expect(again.key).toBe("galeria/Oboz_1.jpg");

    const view = imageView(image, store);
    expect(view.srcSet).toBe(
      "/pliki/galeria/Oboz-480.webp 480w, /pliki/galeria/Oboz-960.webp 960w, /pliki/galeria/Oboz-1200.webp 1200w",
    );
    expect(view.full).toBe("/pliki/galeria/Oboz.jpg");
    expect([view.width, view.height]).toEqual([1200, 800]);
  });
});
