// Archives kept in an S3 bucket (`s3://bucket/key`): the commands work on a
// local temporary file and move it to or from the bucket, so a platform's
// scheduled job needs no volume. Endpoint, region and credentials are the
// app's S3 settings.
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Config } from "~/services/config.server";
import { s3Storage } from "~/services/storage.server";
import { BackupError } from "./format";

export interface S3Location {
  bucket: string;
  key: string;
}

/** `s3://bucket/key` split in two; null for anything else (a file name). */
export function parseS3Location(arg: string): S3Location | null {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(arg);
  return match ? { bucket: match[1], key: match[2] } : null;
}

export const isS3Argument = (arg: string) => arg.startsWith("s3://");

function connect(s3: Config["s3"], bucket: string) {
  return s3Storage({ bucket, region: s3.region, endpoint: s3.endpoint, forcePathStyle: s3.forcePathStyle });
}

const describe = (where: S3Location) => `s3://${where.bucket}/${where.key}`;

/** A private temporary folder for the archive; removed by the returned function. */
export async function scratchFolder(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-archive-"));
  return { dir, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NotFound" || e?.name === "NoSuchKey" || e?.$metadata?.httpStatusCode === 404;
}

/** Refuses a key that already holds something: a backup never overwrites one. */
export async function assertAbsent(s3: Config["s3"], where: S3Location): Promise<void> {
  const store = connect(s3, where.bucket);
  try {
    const { HeadObjectCommand } = await import("@aws-sdk/client-s3");
    await (await store.client()).send(new HeadObjectCommand({ Bucket: where.bucket, Key: where.key }));
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  } finally {
    await store.close();
  }
  throw new BackupError(`Kopia ${describe(where)} już istnieje; podaj inną nazwę.`);
}

/** Parts of a multipart upload: S3 allows 10,000, so this carries archives up to 640 GB. */
export const PART_SIZE = 64 * 1024 * 1024;

/**
 * Uploads a finished archive: one request when it fits in one part, else a
 * multipart upload (aborted on failure, so no half archive is left behind).
 */
export async function uploadArchive(
  s3: Config["s3"],
  file: string,
  where: S3Location,
  partSize = PART_SIZE,
): Promise<void> {
  const store = connect(s3, where.bucket);
  const Bucket = where.bucket;
  const Key = where.key;
  const ContentType = "application/gzip";
  try {
    const sdk = await import("@aws-sdk/client-s3");
    const client = await store.client();
    const { size } = await fs.stat(file);
    if (size <= partSize) {
      const body = createReadStream(file);
      try {
        await client.send(new sdk.PutObjectCommand({ Bucket, Key, Body: body, ContentLength: size, ContentType }));
      } finally {
        body.destroy();
      }
      return;
    }
    const { UploadId } = await client.send(new sdk.CreateMultipartUploadCommand({ Bucket, Key, ContentType }));
    try {
      const parts: { ETag: string | undefined; PartNumber: number }[] = [];
      const handle = await fs.open(file);
      try {
        for (let offset = 0, PartNumber = 1; offset < size; offset += partSize, PartNumber++) {
          const length = Math.min(partSize, size - offset);
          const body = Buffer.alloc(length);
          await handle.read(body, 0, length, offset);
          const { ETag } = await client.send(
            new sdk.UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body: body, ContentLength: length }),
          );
          parts.push({ ETag, PartNumber });
        }
      } finally {
        await handle.close();
      }
      await client.send(
        new sdk.CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } }),
      );
    } catch (error) {
      await client.send(new sdk.AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => {});
      throw error;
    }
  } finally {
    await store.close();
  }
}

/** Downloads an archive to `file`. */
export async function downloadArchive(s3: Config["s3"], where: S3Location, file: string): Promise<void> {
  const store = connect(s3, where.bucket);
  try {
    const { GetObjectCommand } = await import("@aws-sdk/client-s3");
    let res;
    try {
      res = await (await store.client()).send(new GetObjectCommand({ Bucket: where.bucket, Key: where.key }));
    } catch (error) {
      if (isNotFound(error)) throw new BackupError(`Nie ma kopii ${describe(where)}.`);
      throw error;
    }
    if (!(res.Body instanceof Readable)) throw new Error("S3 returned no readable body");
    await pipeline(res.Body, createWriteStream(file, { mode: 0o600 }));
  } finally {
    await store.close();
  }
}
