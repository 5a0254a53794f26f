import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { S3Client, S3ClientConfig } from "@aws-sdk/client-s3";
import { config } from "~/services/config.server";
import { FILES_PATH } from "~/lib/paths";
import { trimEndWhile } from "~/lib/text";

export interface StoredObject {
  body: Readable;
  size: number;
  contentType: string;
}

export interface StoredEntry {
  key: string;
  size: number;
  lastModified: Date;
}

/**
 * Where uploaded files live: local disk or S3, behind one interface.
 * The stored Content-Type always follows the key's extension (see
 * `contentTypeFor`), so both backends serve a file the same way whatever
 * type a caller claims.
 */
export interface Storage {
  put(key: string, body: Buffer | Uint8Array, contentType: string): Promise<void>;
  /** Streams a file from local disk into storage without reading it into memory. */
  putFile(key: string, filePath: string, contentType: string): Promise<void>;
  get(key: string): Promise<StoredObject | null>;
  exists(key: string): Promise<boolean>;
  /** Removing a key that does not exist is not an error. */
  delete(key: string): Promise<void>;
  /** Every stored key that starts with `prefix` (a plain string prefix, as in S3), sorted by key. */
  list(prefix?: string): Promise<StoredEntry[]>;
  /** Address a browser loads the file from. */
  publicUrl(key: string): string;
}

/** Keys never change, so every copy anywhere may be kept for good. */
/**
 * Folders whose files are the server's own (forms kept after a session ended,
 * app/features/kept-forms) and are never handed to a browser by /pliki.
 */
export const PRIVATE_FOLDERS = ["zachowane/"] as const;

/** True for a key that /pliki must answer as not found. */
export function isPrivateKey(key: string): boolean {
  return PRIVATE_FOLDERS.some((folder) => key.startsWith(folder));
}

export const IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable";

const KEY_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;
const PREFIX_PATTERN = /^([A-Za-z0-9_-][A-Za-z0-9._-]*\/)*([A-Za-z0-9_-][A-Za-z0-9._-]*)?$/;

/** Keys are relative paths of safe characters; no `..`, no absolute paths. */
export function isValidKey(key: string): boolean {
  return key.length <= 512 && KEY_PATTERN.test(key) && !key.split("/").includes("..");
}

function assertKey(key: string) {
  if (!isValidKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
}

function assertPrefix(prefix: string) {
  if (prefix.length > 512 || !PREFIX_PATTERN.test(prefix) || prefix.split("/").includes("..")) {
    throw new Error(`Invalid storage prefix: ${JSON.stringify(prefix)}`);
  }
}

const CONTENT_TYPES: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".webp": "image/webp",
  ".avif": "image/avif",
};

/** Only image types are ever served; anything else is a download. */
export function contentTypeFor(key: string): string {
  return CONTENT_TYPES[path.extname(key).toLowerCase()] ?? "application/octet-stream";
}

// Files being written wait here; the leading dot keeps the folder out of the
// key space (no key segment may start with a dot) and out of `list`.
const TMP_DIR = ".tmp";

export function diskStorage(root: string, urlPrefix = FILES_PATH): Storage {
  const fileFor = (key: string) => {
    assertKey(key);
    return path.join(root, ...key.split("/"));
  };
  // Write in the hidden folder, then rename: a reader never sees half a file.
  async function writeAtomically(key: string, write: (tmp: string) => Promise<void>) {
    const file = fileFor(key);
    const tmpDir = path.join(root, TMP_DIR);
    await fs.mkdir(tmpDir, { recursive: true });
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = path.join(tmpDir, `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
    try {
      await write(tmp);
      await fs.rename(tmp, file);
    } catch (error) {
      await fs.rm(tmp, { force: true });
      throw error;
    }
  }
  async function walk(dir: string, rel: string, prefix: string, out: StoredEntry[]) {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const key = rel ? `${rel}/${entry.name}` : entry.name;
      // Only descend where keys can still match the prefix.
      if (entry.isDirectory()) {
        if (prefix.startsWith(`${key}/`) || `${key}/`.startsWith(prefix)) {
          await walk(path.join(dir, entry.name), key, prefix, out);
        }
      } else if (entry.isFile() && key.startsWith(prefix) && isValidKey(key)) {
        const stat = await fs.stat(path.join(dir, entry.name));
        out.push({ key, size: stat.size, lastModified: stat.mtime });
      }
    }
  }
  return {
    async put(key, body) {
      await writeAtomically(key, (tmp) => fs.writeFile(tmp, body));
    },
    async putFile(key, filePath) {
      await writeAtomically(key, (tmp) => fs.copyFile(filePath, tmp));
    },
    async get(key) {
      if (!isValidKey(key)) return null;
      const file = fileFor(key);
      try {
        const stat = await fs.stat(file);
        if (!stat.isFile()) return null;
        return { body: createReadStream(file), size: stat.size, contentType: contentTypeFor(key) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async exists(key) {
      try {
        return (await fs.stat(fileFor(key))).isFile();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
        throw error;
      }
    },
    async delete(key) {
      await fs.rm(fileFor(key), { force: true });
    },
    async list(prefix = "") {
      assertPrefix(prefix);
      const out: StoredEntry[] = [];
      await walk(root, "", prefix, out);
      return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    publicUrl(key) {
      return `${urlPrefix}/${key}`;
    },
  };
}

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle?: boolean;
  /** Base address the bucket's objects are served from (a CDN, say); derived from the endpoint when unset. */
  publicUrl?: string;
  /** Only for tests and tools; the app takes credentials from the standard AWS variables. */
  credentials?: S3ClientConfig["credentials"];
}

export interface S3Storage extends Storage {
  readonly bucket: string;
  /** The SDK client, created on first use. */
  client(): Promise<S3Client>;
  /** Closes the client's keep-alive sockets. */
  close(): Promise<void>;
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NotFound" || e?.name === "NoSuchKey" || e?.$metadata?.httpStatusCode === 404;
}

/** Where a browser finds an object when no S3_PUBLIC_URL is configured. */
function defaultS3Base(o: S3StorageOptions): string {
  if (!o.endpoint) return `https://${o.bucket}.s3.${o.region}.amazonaws.com`;
  const url = new URL(o.endpoint);
  const base = trimEndWhile(url.pathname, (c) => c === "/");
  if (o.forcePathStyle) return `${url.protocol}//${url.host}${base}/${o.bucket}`;
  return `${url.protocol}//${o.bucket}.${url.host}${base}`;
}

type S3Sdk = typeof import("@aws-sdk/client-s3");

export function s3Storage(options: S3StorageOptions): S3Storage {
  const Bucket = options.bucket;
  const base = trimEndWhile(options.publicUrl ?? defaultS3Base(options), (c) => c === "/");
  // The SDK is loaded only when S3 is used: it adds some 20 MB to a server
  // that keeps its files on disk.
  let ready: Promise<{ sdk: S3Sdk; client: S3Client }> | undefined;
  const connect = () =>
    (ready ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: options.region,
        endpoint: options.endpoint,
        forcePathStyle: options.forcePathStyle ?? false,
        credentials: options.credentials,
        // With the default checksums a streamed body is sent in aws-chunked
        // framing, which S3-compatible servers (s3rver among them) may store
        // verbatim; checksums only where the API demands them.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      }),
    })));

  async function upload(key: string, body: Buffer | Uint8Array | Readable, length: number) {
    assertKey(key);
    const { sdk, client } = await connect();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket,
        Key: key,
        Body: body,
        ContentLength: length,
        ContentType: contentTypeFor(key),
        CacheControl: IMMUTABLE_CACHE_CONTROL,
      }),
    );
  }

  return {
    bucket: Bucket,
    async client() {
      return (await connect()).client;
    },
    async close() {
      if (ready) (await ready).client.destroy();
      ready = undefined;
    },
    async put(key, body) {
      await upload(key, body, body.byteLength);
    },
    async putFile(key, filePath) {
      assertKey(key);
      const { size } = await fs.stat(filePath);
      const stream = createReadStream(filePath);
      try {
        await upload(key, stream, size);
      } finally {
        stream.destroy();
      }
    },
    async get(key) {
      if (!isValidKey(key)) return null;
      const { sdk, client } = await connect();
      try {
        const res = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key }));
        if (!(res.Body instanceof Readable)) throw new Error("S3 returned no readable body");
        return {
          body: res.Body,
          size: res.ContentLength ?? 0,
          contentType: res.ContentType ?? contentTypeFor(key),
        };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async exists(key) {
      assertKey(key);
      const { sdk, client } = await connect();
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },
    async delete(key) {
      assertKey(key);
      const { sdk, client } = await connect();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
    },
    async list(prefix = "") {
      assertPrefix(prefix);
      const { sdk, client } = await connect();
      const out: StoredEntry[] = [];
      let ContinuationToken: string | undefined;
      do {
        const res = await client.send(
          new sdk.ListObjectsV2Command({ Bucket, Prefix: prefix || undefined, ContinuationToken }),
        );
        for (const o of res.Contents ?? []) {
          if (o.Key) out.push({ key: o.Key, size: o.Size ?? 0, lastModified: o.LastModified ?? new Date(0) });
        }
        ContinuationToken = res.IsTruncated ? res.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    publicUrl(key) {
      return `${base}/${key}`;
    },
  };
}

let cached: Storage | undefined;

export function storage(): Storage {
  if (cached) return cached;
  const cfg = config().storage;
  cached =
    cfg.kind === "s3"
      ? s3Storage({
          bucket: cfg.bucket,
          region: cfg.region,
          endpoint: cfg.endpoint,
          forcePathStyle: cfg.forcePathStyle,
          publicUrl: cfg.publicUrl,
        })
      : diskStorage(cfg.dir);
  return cached;
}

/** Replaces characters that are unsafe in keys; keeps the name recognisable. */
export function safeFileName(name: string): string {
  const base = path.basename(name.replace(/\\/g, "/"));
  const cleaned = base
    .normalize("NFKD")
    .replace(/ł/g, "l")
    .replace(/Ł/g, "L")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[.-]+/, "")
    .slice(-100);
  return cleaned || "zdjecie";
}

// Keys handed out but not yet written, per store, so two reservations in
// this process can never be given the same key.
const pendingKeys = new WeakMap<Storage, Set<string>>();

/**
 * A new key `folder/<24 hex>-name.ext`, neither stored nor handed out by
 * `reserveUniqueKey`. The 96 random bits keep a draft's photo from being
 * found by guessing, and mean a purged photo's key (its old copies cached
 * `immutable`) is never given out again; the name follows for the pastor.
 */
export async function uniqueKey(store: Storage, folder: string, fileName: string, ext: string): Promise<string> {
  const { key, release } = await reserveUniqueKey(store, folder, fileName, ext);
  release();
  return key;
}

/**
 * Like `uniqueKey`, but the key stays reserved in this process until
 * `release()` is called (after the file is written, or the write failed).
 */
export async function reserveUniqueKey(
  store: Storage,
  folder: string,
  fileName: string,
  ext: string,
): Promise<{ key: string; release: () => void }> {
  const safe = safeFileName(fileName);
  const stem = safe.replace(/\.[^.]*$/, "") || "zdjecie";
  let pending = pendingKeys.get(store);
  if (!pending) pendingKeys.set(store, (pending = new Set()));
  for (;;) {
    const key = `${folder}/${randomBytes(12).toString("hex")}-${stem}${ext}`;
    if (pending.has(key)) continue;
    // Claimed before the await, so a concurrent call skips it.
    pending.add(key);
    let taken: boolean;
    try {
      taken = await store.exists(key);
    } catch (error) {
      pending.delete(key);
      throw error;
    }
    if (!taken) {
      const set = pending;
      return { key, release: () => set.delete(key) };
    }
    pending.delete(key);
  }
}
