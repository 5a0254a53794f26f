import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { config } from "./config.server";

export interface StoredObject {
  body: Readable;
  size: number;
  contentType: string;
}

/** Where uploaded files live: local disk or S3, behind one interface. */
export interface Storage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<StoredObject | null>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Address a browser loads the file from. */
  publicUrl(key: string): string;
}

const KEY_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Keys are relative paths of safe characters; no `..`, no absolute paths. */
export function isValidKey(key: string): boolean {
  return key.length <= 512 && KEY_PATTERN.test(key) && !key.split("/").includes("..");
}

function assertKey(key: string) {
  if (!isValidKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
}

const CONTENT_TYPES: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".webp": "image/webp",
};

/** Only image types are ever served; anything else is a download. */
export function contentTypeFor(key: string): string {
  return CONTENT_TYPES[path.extname(key).toLowerCase()] ?? "application/octet-stream";
}

export function diskStorage(root: string, urlPrefix = "/pliki"): Storage {
  const fileFor = (key: string) => {
    assertKey(key);
    return path.join(root, ...key.split("/"));
  };
  return {
    async put(key, body) {
      const file = fileFor(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Write beside and rename, so a reader never sees half a file.
      const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
      await fs.writeFile(tmp, body);
      await fs.rename(tmp, file);
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
    publicUrl(key) {
      return `${urlPrefix}/${key}`;
    },
  };
}

let cached: Storage | undefined;

export function storage(): Storage {
  if (cached) return cached;
  const cfg = config().storage;
  if (cfg.kind === "s3") {
    throw new Error("S3 storage is not available yet; set STORAGE=disk");
  }
  cached = diskStorage(cfg.dir);
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

/**
 * First key of the form `folder/name.ext`, `folder/name_1.ext`, … that is not
 * taken yet (duplicate names get a numeric suffix before the extension).
 */
export async function uniqueKey(store: Storage, folder: string, fileName: string, ext: string): Promise<string> {
  const safe = safeFileName(fileName);
  const stem = safe.replace(/\.[^.]*$/, "") || "zdjecie";
  for (let n = 0; ; n++) {
    const key = `${folder}/${stem}${n === 0 ? "" : `_${n}`}${ext}`;
    if (!(await store.exists(key))) return key;
  }
}
