import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { text } from "node:stream/consumers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Storage, diskStorage, isValidKey, safeFileName, uniqueKey } from "~/services/storage.server";

let root: string;
let store: Storage;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-disk-"));
  store = diskStorage(root);
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe("disk storage", () => {
  it("stores, reads, checks and deletes a file", async () => {
    await store.put("a/b.jpg", Buffer.from("hello"), "image/jpeg");
    expect(await store.exists("a/b.jpg")).toBe(true);
    const file = await store.get("a/b.jpg");
    expect(file?.contentType).toBe("image/jpeg");
    expect(file?.size).toBe(5);
    expect(await text(file!.body)).toBe("hello");
    await store.delete("a/b.jpg");
    expect(await store.exists("a/b.jpg")).toBe(false);
    expect(await store.get("a/b.jpg")).toBeNull();
  });

  it("refuses keys that leave its folder", async () => {
    for (const key of ["../x.jpg", "a/../../x.jpg", "/etc/passwd", "a//b.jpg", ".hidden", "a\\b.jpg", ""]) {
      expect(isValidKey(key), key).toBe(false);
      expect(await store.get(key)).toBeNull();
      await expect(store.put(key, Buffer.from("x"), "image/jpeg")).rejects.toThrow(/Invalid storage key/);
    }
    await expect(fs.readdir(path.dirname(root))).resolves.not.toContain("x.jpg");
  });

  it("serves unknown extensions as downloads, never as pages", async () => {
    await store.put("a/page.html", Buffer.from("<script>"), "text/html");
    expect((await store.get("a/page.html"))?.contentType).toBe("application/octet-stream");
  });

  it("gives each new file a key with 96 random bits before its name, never the same twice", async () => {
    const first = await uniqueKey(store, "f", "IMG_0042.JPG", ".jpg");
    expect(first).toMatch(/^f\/[0-9a-f]{24}-IMG_0042\.jpg$/);
    await store.put(first, Buffer.from("1"), "image/jpeg");
    const second = await uniqueKey(store, "f", "IMG_0042.JPG", ".jpg");
    expect(second).toMatch(/^f\/[0-9a-f]{24}-IMG_0042\.jpg$/);
    expect(second).not.toBe(first);
  });

  it("writes through a hidden folder, so half-written files are never listed or served", async () => {
    await store.put("a/b.jpg", Buffer.from("x"), "image/jpeg");
    expect(await fs.readdir(path.join(root, ".tmp"))).toEqual([]);
    // A file left there by a crash mid-write.
    await fs.writeFile(path.join(root, ".tmp", "123-456-abc"), "half");
    expect((await store.list()).map((e) => e.key)).toEqual(["a/b.jpg"]);
    expect(await store.get(".tmp/123-456-abc")).toBeNull();
  });

  it("makes safe names from hostile or Polish file names", () => {
    expect(safeFileName("../../etc/passwd")).toBe("passwd");
    expect(safeFileName("C:\\Users\\x\\Zdjęcie łąki.jpg")).toBe("Zdjecie-laki.jpg");
    expect(safeFileName("...")).toBe("zdjecie");
    expect(isValidKey(`f/${safeFileName("..\u0000evil.jpg")}`)).toBe(true);
  });
});
