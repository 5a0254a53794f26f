import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  IMAGE_MESSAGES,
  ImageRejected,
  MAX_PIXELS,
  imageView,
  offerAvif,
  processImage,
  sniffImageFormat,
  storeImage,
} from "~/services/images.server";
import { avifKey, variantKey, variantMedian } from "~/lib/image-variants";
import { diskStorage } from "~/services/storage.server";

const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#3366aa" } })
    .jpeg()
    .toBuffer();

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-img-"));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function writeTemp(name: string, data: Buffer | string): Promise<string> {
  const file = path.join(dir, name);
  await fs.writeFile(file, data);
  return file;
}

async function rejection(promise: Promise<unknown>): Promise<ImageRejected> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImageRejected);
  return error as ImageRejected;
}

/**
 * A camera-like JPEG: stored sideways (left half red, right half blue) with
 * EXIF orientation 6, a camera make and a GPS position.
 */
async function sidewaysPhotoWithGps(): Promise<Buffer> {
  const red = await sharp({ create: { width: 300, height: 400, channels: 3, background: "#ff0000" } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 600, height: 400, channels: 3, background: "#0000ff" } })
    .composite([{ input: red, left: 0, top: 0 }])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: "TestCam", Model: "Phone 12" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "49/1 59/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "20/1 3/1 0/1" },
    })
    .withIccProfile("p3")
    .toBuffer();
}

async function expectNoMetadata(data: Buffer) {
  const meta = await sharp(data).metadata();
  expect(meta.exif).toBeUndefined();
  expect(meta.xmp).toBeUndefined();
  expect(meta.iptc).toBeUndefined();
  expect(meta.icc).toBeUndefined();
  expect(meta.orientation).toBeUndefined();
  const raw = data.toString("latin1");
  expect(raw).not.toContain("Exif");
  expect(raw).not.toContain("TestCam");
}

/** Mean colour of a region: which half of the picture is red tells its orientation. */
async function meanColour(data: Buffer, region: { left: number; top: number; width: number; height: number }) {
  const { data: px, info } = await sharp(data)
    .extract(region)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const sums = [0, 0, 0];
  for (let i = 0; i < px.length; i += info.channels) for (let c = 0; c < 3; c++) sums[c] += px[i + c];
  return sums.map((s) => Math.round(s / (info.width * info.height)));
}

describe("image pipeline", () => {
  it("makes WebP and AVIF variants no wider than the photo and a large JPEG", async () => {
    const out = await processImage(await jpeg(2000, 1500));
    expect([out.width, out.height]).toEqual([2000, 1500]);
    expect(out.variants.map((v) => v.width)).toEqual([360, 480, 640, 720, 960, 1600]);
    for (const v of out.variants) {
      expect(await sharp(v.data).metadata()).toMatchObject({ format: "webp", width: v.width });
      // libvips names AVIF "heif" with the av1 compression.
      expect(await sharp(v.avif).metadata()).toMatchObject({ format: "heif", compression: "av1", width: v.width });
    }
    expect((await sharp(out.large).metadata()).format).toBe("jpeg");

    const small = await processImage(await jpeg(600, 400));
    expect(small.variants.map((v) => v.width)).toEqual([360, 480, 600]);
  });

  it("smooths away specks of grain in the small variants, and keeps them in the large ones", async () => {
    // Dark grey with a bright speck every 40 px, 4 px square: at 720 px wide
    // a speck is under 2 px, which a 3×3 median removes; at 1600 px it is kept.
    const speck = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#ffffff" } })
      .png()
      .toBuffer();
    const specks = [];
    for (let y = 20; y < 1200; y += 40)
      for (let x = 20; x < 1600; x += 40) specks.push({ input: speck, left: x, top: y });
    const input = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: "#202020" } })
      .composite(specks)
      .jpeg({ quality: 95 })
      .toBuffer();
    const brightest = async (data: Buffer) => (await sharp(data).stats()).channels[0].max;

    const out = await processImage(input);
    for (const v of out.variants) {
      for (const data of [v.data, v.avif]) {
        if (variantMedian(v.width)) expect(await brightest(data), `${v.width} px`).toBeLessThan(90);
        else expect(await brightest(data), `${v.width} px`).toBeGreaterThan(150);
      }
    }
    expect(out.variants.filter((v) => variantMedian(v.width)).map((v) => v.width)).toEqual([360, 480, 640, 720]);
  });

  it("turns an EXIF-rotated photo upright and strips EXIF and GPS from every output", async () => {
    const input = await sidewaysPhotoWithGps();
    const before = await sharp(input).metadata();
    expect([before.width, before.height, before.orientation]).toEqual([600, 400, 6]);
    expect(before.exif?.toString("latin1")).toContain("TestCam");

    const out = await processImage(input);
    expect([out.width, out.height]).toEqual([400, 600]);
    // Orientation 6 means "rotate 90° clockwise to view": the stored left half ends up on top.
    const top = await meanColour(out.large, { left: 0, top: 0, width: 400, height: 280 });
    const bottom = await meanColour(out.large, { left: 0, top: 320, width: 400, height: 280 });
    expect(top[0]).toBeGreaterThan(200);
    expect(top[2]).toBeLessThan(60);
    expect(bottom[2]).toBeGreaterThan(200);
    expect(bottom[0]).toBeLessThan(60);

    for (const data of [out.large, ...out.variants.flatMap((v) => [v.data, v.avif])]) await expectNoMetadata(data);
    for (const v of out.variants) {
      const m = await sharp(v.data).metadata();
      expect(m.height! > m.width!).toBe(true);
    }
  });

  it("processes an upload from a file path, and stores nothing with metadata", async () => {
    const file = await writeTemp("upload-1", await sidewaysPhotoWithGps());
    const store = diskStorage(path.join(dir, "store-path"));
    const image = await storeImage(file, "IMG_0001.JPG", "aktualnosci", store);
    expect(image).toMatchObject({ width: 400, height: 600 });
    // At least 16 random characters (96 bits) before the name: a draft's photo can't be guessed.
    expect(image.key).toMatch(/^aktualnosci\/[0-9a-f]{24}-IMG_0001\.jpg$/);
    const stem = image.key.slice(0, -".jpg".length);
    const keys = (await store.list("aktualnosci/")).map((e) => e.key);
    expect(keys).toEqual([
      `${stem}-360.avif`,
      `${stem}-360.webp`,
      `${stem}-400.avif`,
      `${stem}-400.jpeg`,
      `${stem}-400.webp`,
      `${stem}.jpg`,
    ]);
    for (const key of keys) await expectNoMetadata(await buffer((await store.get(key))!.body));
  });

  it("judges the content, not the name: a PNG called .jpg is fine, text called .jpg is not", async () => {
    const png = await sharp({ create: { width: 50, height: 40, channels: 4, background: "#00000000" } })
      .png()
      .toBuffer();
    const out = await processImage(await writeTemp("naprawde-png.jpg", png));
    expect([out.width, out.height]).toEqual([50, 40]);

    const text = await writeTemp("zdjecie.jpg", "to nie jest zdjęcie, tylko tekst\n".repeat(100));
    expect((await rejection(processImage(text))).message).toBe(IMAGE_MESSAGES.notImage);
    await rejection(processImage(Buffer.from("to nie jest zdjęcie")));
    await rejection(processImage(Buffer.alloc(0)));

    // libvips would render SVG; it is never handed over.
    const svg = await writeTemp("obrazek.jpg", '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    expect((await rejection(processImage(svg))).reason).toBe("notImage");

    // A real JPEG header followed by garbage decodes to nothing usable.
    const broken = Buffer.concat([(await jpeg(100, 100)).subarray(0, 200), Buffer.alloc(200, 7)]);
    expect((await rejection(processImage(broken))).reason).toBe("broken");
  });

  it("refuses a file over 25 MB before looking inside", async () => {
    const file = path.join(dir, "wielki.jpg");
    await fs.writeFile(file, await jpeg(10, 10));
    await fs.truncate(file, 25 * 1024 * 1024 + 1);
    expect((await rejection(processImage(file))).message).toBe(IMAGE_MESSAGES.tooLarge);
    expect((await rejection(processImage(Buffer.alloc(25 * 1024 * 1024 + 1)))).reason).toBe("tooLarge");
  });

  it("refuses 60 megapixels from the header alone, before decoding", async () => {
    const png = await sharp({ create: { width: 10000, height: 6000, channels: 3, background: "#ffffff" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(png.length).toBeLessThan(1024 * 1024);
    expect(10000 * 6000).toBeGreaterThan(MAX_PIXELS);
    expect((await rejection(processImage(png))).message).toBe(IMAGE_MESSAGES.tooManyPixels);
    expect(IMAGE_MESSAGES.tooManyPixels).toMatch(/50 megapikseli/);

    // Only the header survives here: had the pipeline decoded pixels, this
    // would have failed as a broken file instead.
    const headerOnly = png.subarray(0, 4096);
    await expect(sharp(headerOnly).resize(10).toBuffer()).rejects.toThrow();
    const file = await writeTemp("60mp.png", headerOnly);
    expect((await rejection(processImage(file))).reason).toBe("tooManyPixels");
  });

  it("recognises HEIC and explains how to send JPEG from an iPhone", async () => {
    // A bare `ftyp heic` box: sharp sees HEIF but cannot read it.
    const ftyp = Buffer.alloc(32);
    ftyp.writeUInt32BE(24, 0);
    ftyp.write("ftypheic", 4, "latin1");
    ftyp.write("mif1heic", 16, "latin1");
    const minimal = Buffer.concat([ftyp, Buffer.alloc(1000)]);
    await expect(sharp(minimal).metadata()).rejects.toThrow(/heif/i);

    // A decodable HEIF container branded heic: sharp reads it as "heif".
    const avif = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#ff0000" } })
      .avif()
      .toBuffer();
    const ftypEnd = avif.readUInt32BE(0);
    const branded = Buffer.from(avif);
    branded.write(branded.toString("latin1", 0, ftypEnd).replaceAll("avif", "heic"), 0, "latin1");
    expect((await sharp(branded).metadata()).format).toBe("heif");

    for (const input of [minimal, branded, await writeTemp("IMG_0042.HEIC", minimal)]) {
      const error = await rejection(processImage(input));
      expect(error.reason).toBe("heic");
      expect(error.message).toMatch(/HEIC/);
      expect(error.message).toContain("Najbardziej zgodne");
      expect(error.message).toMatch(/JPEG/);
    }
    // AVIF is not HEIC, but not accepted either.
    expect((await rejection(processImage(avif))).reason).toBe("notImage");
    expect(sniffImageFormat(avif)).toBeNull();
  });

  it("stores all files and describes them for <img srcset>", async () => {
    const store = diskStorage(path.join(dir, "store"));
    const image = await storeImage(await jpeg(1200, 800), "Obóz.jpg", "galeria", store);
    expect(image).toMatchObject({ width: 1200, height: 800 });
    expect(image.key).toMatch(/^galeria\/[0-9a-f]{24}-Oboz\.jpg$/);
    const stem = image.key.slice(0, -".jpg".length);
    for (const w of [360, 480, 640, 720, 960, 1200]) expect(await store.exists(variantKey(image.key, w))).toBe(true);
    for (const w of [360, 480, 640, 720, 960, 1200]) expect(await store.exists(avifKey(image.key, w))).toBe(true);
    const again = await storeImage(await jpeg(1200, 800), "Obóz.jpg", "galeria", store);
    expect(again.key).toMatch(/^galeria\/[0-9a-f]{24}-Oboz\.jpg$/);
    expect(again.key).not.toBe(image.key);

    const view = imageView(image, store);
    expect(view.srcSet).toBe([360, 480, 640, 720, 960, 1200].map((w) => `/pliki/${stem}-${w}.webp ${w}w`).join(", "));
    // AVIF is offered only once every stored photo is known to have it.
    expect(view.avifSrcSet).toBe("");
    expect(view.full).toBe(`/pliki/${image.key}`);
    expect([view.width, view.height]).toEqual([1200, 800]);
    offerAvif(true);
    try {
      expect(imageView(image, store).avifSrcSet).toBe(
        [360, 480, 640, 720, 960, 1200].map((w) => `/pliki/${stem}-${w}.avif ${w}w`).join(", "),
      );
    } finally {
      offerAvif(false);
    }
  });

  it("gives photos of the same name stored at once different keys", async () => {
    const store = diskStorage(path.join(dir, "store-parallel"));
    const photo = await jpeg(500, 300);
    const images = await Promise.all([1, 2, 3].map(() => storeImage(photo, "image.jpg", "galeria", store)));
    // At least 16 random characters before the name: a draft's photo can't be found by guessing.
    for (const i of images) expect(i.key).toMatch(/^galeria\/[0-9a-f]{24}-image\.jpg$/);
    expect(new Set(images.map((i) => i.key)).size).toBe(3);
  });
});
