// The same behaviour asked of both storage backends: local disk, and S3 as
// spoken by a real s3rver started here on a free port.
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { buffer, text } from "node:stream/consumers";
import { pipeline } from "node:stream/promises";
import { HeadObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  IMMUTABLE_CACHE_CONTROL,
  type S3Storage,
  type Storage,
  diskStorage,
  reserveUniqueKey,
  s3Storage,
  uniqueKey,
} from "~/services/storage.server";
import { S3_CREDENTIALS, startS3 } from "../s3";

let tmpRoot: string;
let server: Awaited<ReturnType<typeof startS3>>;
let endpoint: string;
let s3: S3Storage;

beforeAll(async () => {
  tmpRoot = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-storage-"));
  server = await startS3({ directory: path.join(tmpRoot, "s3rver"), buckets: ["zbor-test"] });
  endpoint = server.endpoint;
  s3 = server.storage("zbor-test");
});

afterAll(async () => {
  // Close the SDK's keep-alive sockets first, or the server waits for them.
  await s3?.close();
  await server?.close();
  await fs.rm(tmpRoot, { recursive: true, force: true });
});

/** A file of random bytes written in pieces, so the test itself never holds it whole. */
async function randomFile(file: string, size: number): Promise<string> {
  const hash = createHash("sha256");
  let left = size;
  await pipeline(
    Readable.from(
      (function* () {
        while (left > 0) {
          const chunk = randomBytes(Math.min(left, 1 << 20));
          left -= chunk.length;
          hash.update(chunk);
          yield chunk;
        }
      })(),
    ),
    createWriteStream(file),
  );
  return hash.digest("hex");
}

async function sha256(body: Readable): Promise<{ hash: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of body) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { hash: hash.digest("hex"), size };
}

const backends: { name: string; store: () => Storage }[] = [
  { name: "disk", store: () => diskStorage(path.join(tmpRoot, "disk")) },
  { name: "s3", store: () => s3 },
];

describe.each(backends)("storage contract: $name", ({ name, store: getStore }) => {
  let store: Storage;
  beforeAll(() => {
    store = getStore();
  });

  it("stores, reads, checks and deletes a file", async () => {
    await store.put("a/b.jpg", Buffer.from("hello"), "image/jpeg");
    expect(await store.exists("a/b.jpg")).toBe(true);
    const file = await store.get("a/b.jpg");
    expect(file?.contentType).toBe("image/jpeg");
    expect(file?.size).toBe(5);
    expect(await text(file!.body)).toBe("hello");

    await store.put("a/b.jpg", Buffer.from("replaced"), "image/jpeg");
    expect(await text((await store.get("a/b.jpg"))!.body)).toBe("replaced");

    await store.delete("a/b.jpg");
    expect(await store.exists("a/b.jpg")).toBe(false);
    expect(await store.get("a/b.jpg")).toBeNull();
  });

  it("answers a missing key with null and false, and deletes it without error", async () => {
    expect(await store.get("nie/ma/takiego.jpg")).toBeNull();
    expect(await store.exists("nie/ma/takiego.jpg")).toBe(false);
    await expect(store.delete("nie/ma/takiego.jpg")).resolves.toBeUndefined();
  });

  it("stores the type the key's extension gives, never a page", async () => {
    await store.put("t/photo.webp", Buffer.from("w"), "image/webp");
    await store.put("t/page.html", Buffer.from("<script>"), "text/html");
    expect((await store.get("t/photo.webp"))?.contentType).toBe("image/webp");
    expect((await store.get("t/page.html"))?.contentType).toBe("application/octet-stream");
  });

  it("refuses invalid keys and prefixes", async () => {
    for (const key of ["../x.jpg", "a/../../x.jpg", "/etc/passwd", "a//b.jpg", ".hidden", "a\\b.jpg", "", "a/ b.jpg"]) {
      expect(await store.get(key), key).toBeNull();
      await expect(store.put(key, Buffer.from("x"), "image/jpeg"), key).rejects.toThrow(/Invalid storage key/);
      await expect(store.exists(key), key).rejects.toThrow(/Invalid storage key/);
      await expect(store.delete(key), key).rejects.toThrow(/Invalid storage key/);
    }
    for (const prefix of ["../", "/a", "a/../", "a b"]) {
      await expect(store.list(prefix), prefix).rejects.toThrow(/Invalid storage prefix/);
    }
  });

  it("puts 96 random bits before the file's name, so no key can be guessed or given twice", async () => {
    const first = await uniqueKey(store, "f", "IMG_0042.JPG", ".jpg");
    expect(first).toMatch(/^f\/[0-9a-f]{24}-IMG_0042\.jpg$/);
    await store.put(first, Buffer.from("1"), "image/jpeg");
    await store.delete(first);
    // A deleted file's key is not handed out again (its old copies may be cached for a year).
    const second = await uniqueKey(store, "f", "IMG_0042.JPG", ".jpg");
    expect(second).not.toBe(first);
    expect(await uniqueKey(store, "f", "Zdjęcie łąki.jpeg", ".jpg")).toMatch(/^f\/[0-9a-f]{24}-Zdjecie-laki\.jpg$/);
  });

  it("gives different names to uploads of the same name at the same moment", async () => {
    const claims = await Promise.all([1, 2, 3].map(() => reserveUniqueKey(store, "g", "image.jpg", ".jpg")));
    for (const c of claims) expect(c.key).toMatch(/^g\/[0-9a-f]{24}-image\.jpg$/);
    expect(new Set(claims.map((c) => c.key)).size).toBe(3);
    for (const c of claims) c.release();
  });

  it("lists keys by prefix, sorted, with sizes", async () => {
    for (const key of ["l/x/1.jpg", "l/x/2.webp", "l/xy/3.jpg", "l/y/4.jpg", "l2/5.jpg"]) {
      await store.put(key, Buffer.from(key), "image/jpeg");
    }
    const keys = async (prefix?: string) => (await store.list(prefix)).map((e) => e.key);
    expect(await keys("l/x/")).toEqual(["l/x/1.jpg", "l/x/2.webp"]);
    expect(await keys("l/x")).toEqual(["l/x/1.jpg", "l/x/2.webp", "l/xy/3.jpg"]);
    expect(await keys("l/")).toEqual(["l/x/1.jpg", "l/x/2.webp", "l/xy/3.jpg", "l/y/4.jpg"]);
    expect(await keys("l")).toContain("l2/5.jpg");
    expect(await keys("nic/")).toEqual([]);
    const all = await store.list();
    expect(all.map((e) => e.key)).toEqual(expect.arrayContaining(["l/x/1.jpg", "l2/5.jpg"]));
    const entry = all.find((e) => e.key === "l/y/4.jpg")!;
    expect(entry.size).toBe("l/y/4.jpg".length);
    expect(entry.lastModified).toBeInstanceOf(Date);
    expect(Math.abs(Date.now() - entry.lastModified.getTime())).toBeLessThan(60_000);
  });

  it("streams a large file in and out byte for byte", async () => {
    const size = 24 * 1024 * 1024 + 12345;
    const file = path.join(tmpRoot, `big-${name}.bin`);
    const expected = await randomFile(file, size);
    await store.putFile("big/upload.jpg", file, "image/jpeg");
    const stored = await store.get("big/upload.jpg");
    expect(stored?.size).toBe(size);
    expect(await sha256(stored!.body)).toEqual({ hash: expected, size });
    await store.delete("big/upload.jpg");
    await fs.rm(file);
  });
});

describe("s3 storage specifics", () => {
  it("uploads with an image type and immutable caching, served at its public address", async () => {
    await s3.put("p/zdjecie.jpg", Buffer.from("jpeg bytes"), "image/jpeg");
    const head = await (await s3.client()).send(new HeadObjectCommand({ Bucket: s3.bucket, Key: "p/zdjecie.jpg" }));
    expect(head.ContentType).toBe("image/jpeg");
    expect(head.CacheControl).toBe(IMMUTABLE_CACHE_CONTROL);

    expect(s3.publicUrl("p/zdjecie.jpg")).toBe(`${endpoint}/zbor-test/p/zdjecie.jpg`);
    const res = await fetch(s3.publicUrl("p/zdjecie.jpg"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(res.headers.get("cache-control")).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(Buffer.from(await res.arrayBuffer()).toString()).toBe("jpeg bytes");
  });

  it("stores a streamed body as sent, without aws-chunked framing", async () => {
    const data = randomBytes(3 * 1024 * 1024 + 7);
    const file = path.join(tmpRoot, "stream.bin");
    await fs.writeFile(file, data);
    await s3.putFile("p/stream.png", file, "image/png");
    const got = await s3.get("p/stream.png");
    expect(got?.contentType).toBe("image/png");
    expect((await buffer(got!.body)).equals(data)).toBe(true);
  });

  it("builds public addresses from configuration", () => {
    const base = { bucket: "zbor", region: "eu-central-1", credentials: S3_CREDENTIALS };
    const cases: [Parameters<typeof s3Storage>[0], string][] = [
      [{ ...base, publicUrl: "https://cdn.example.org/pliki/" }, "https://cdn.example.org/pliki/a/b.jpg"],
      [{ ...base, endpoint: "https://s3.example.org", forcePathStyle: true }, "https://s3.example.org/zbor/a/b.jpg"],
      [{ ...base, endpoint: "https://s3.example.org" }, "https://zbor.s3.example.org/a/b.jpg"],
      [base, "https://zbor.s3.eu-central-1.amazonaws.com/a/b.jpg"],
    ];
    for (const [options, url] of cases) {
      const store = s3Storage(options);
      expect(store.publicUrl("a/b.jpg")).toBe(url);
    }
  });
});
