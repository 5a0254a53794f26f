// `npm run sweep`: the operator's look at stored files that nothing names,
// then their removal; files a row names, and young ones, are never touched.
import fs from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import { allKeys } from "~/lib/image-variants";
import { type StoredImage, storeImage } from "~/services/images.server";
import { storage } from "~/services/storage.server";
import { main } from "../../scripts/sweep";
import { insertArticle } from "../fixtures";
import { resetDatabase } from "../helpers";

async function photo(name: string): Promise<StoredImage> {
  const data = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#336699" } })
    .jpeg()
    .toBuffer();
  return storeImage(data, name, "aktualnosci");
}

/** Makes every file of the image two hours old. */
async function age(image: StoredImage) {
  const then = new Date(Date.now() - 2 * 60 * 60 * 1000);
  for (const key of allKeys(image.key, image.width)) {
    await fs.utimes(path.join(process.env.DATA_DIR!, "uploads", key), then, then);
  }
}

/** How many of the image's files (large JPEG, WebP variants, sharing JPEG) are stored. */
async function stored(image: StoredImage) {
  const found = await Promise.all(allKeys(image.key, image.width).map((k) => storage().exists(k)));
  return found.filter(Boolean).length;
}

async function run(args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (d) => (out += d));
  stderr.on("data", (d) => (err += d));
  const code = await main(args, { stdout, stderr });
  return { code, out, err };
}

describe("npm run sweep", () => {
  beforeEach(async () => {
    await resetDatabase();
    await fs.rm(path.join(process.env.DATA_DIR!, "uploads"), { recursive: true, force: true });
  });

  it("lists old files nothing names without removing them, then removes them with --apply", async () => {
    const stray = await photo("porzucone.jpg");
    const young = await photo("w-trakcie.jpg");
    const shown = await photo("pokazane.jpg");
    await insertArticle({ imageKey: shown.key, imageWidth: shown.width, imageHeight: shown.height });
    await age(stray);
    await age(shown);

    const files = allKeys(stray.key, stray.width).length;
    const dry = await run([]);
    expect(dry.code).toBe(0);
    for (const key of allKeys(stray.key, stray.width)) expect(dry.out).toContain(key);
    expect(dry.out).not.toContain(young.key.replace(/\.jpg$/, ""));
    expect(dry.out).toContain(`Plików bez właściciela: ${files}. Usuń je: npm run sweep -- --apply`);
    expect(await stored(stray)).toBe(files);

    const applied = await run(["--apply"]);
    expect(applied.code).toBe(0);
    expect(applied.out).toContain(`Usunięto plików: ${files}; porzuconych szkiców galerii: 0.`);
    expect(await stored(stray)).toBe(0);
    expect(await stored(young)).toBe(files);
    expect(await stored(shown)).toBe(files);

    expect((await run([])).out).toContain("Nie ma plików bez właściciela.");
  });

  it("refuses an unknown argument with its usage", async () => {
    const res = await run(["--wszystko"]);
    expect(res.code).toBe(1);
    expect(res.err).toContain("Użycie: zbor sweep [--apply] [--older-than MINUT]");
  });
});
