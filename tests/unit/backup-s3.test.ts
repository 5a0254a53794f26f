// Archives kept in a bucket (`zbor backup|restore s3://bucket/key`): the
// address, the no-overwrite rule, and uploads of one part and of many, read
// back byte for byte from an s3rver.
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertAbsent, downloadArchive, parseS3Location, uploadArchive } from "../../scripts/backup/s3-archive";
import { S3_CREDENTIALS, startS3 } from "../s3";

const BUCKET = "kopie";
let dir = "";
let s3rver: Awaited<ReturnType<typeof startS3>>;
let s3: { region: string; endpoint: string; forcePathStyle: boolean };

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-backup-s3-"));
  s3rver = await startS3({ directory: path.join(dir, "s3"), buckets: [BUCKET] });
  // The commands take credentials from the standard AWS variables.
  process.env.AWS_ACCESS_KEY_ID = S3_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = S3_CREDENTIALS.secretAccessKey;
  s3 = { region: "us-east-1", endpoint: s3rver.endpoint, forcePathStyle: true };
});

afterAll(async () => {
  await s3rver?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe("s3:// archives", () => {
  it("reads the bucket and the key from the address", () => {
    expect(parseS3Location("s3://kopie/2026/05/kopia.tar.gz")).toEqual({
      bucket: "kopie",
      key: "2026/05/kopia.tar.gz",
    });
    for (const bad of ["s3://kopie", "s3://kopie/", "s3:///kopia.tar.gz", "kopia.tar.gz", "/tmp/s3://x/y"]) {
      expect(parseS3Location(bad), bad).toBeNull();
    }
  });

  it("uploads in one part or in many, and downloads the same bytes", async () => {
    for (const [name, size] of [
      ["mala.tar.gz", 300_000],
      ["duza.tar.gz", 12 * 1024 * 1024 + 123],
    ] as const) {
      const file = path.join(dir, name);
      const bytes = randomBytes(size);
      await fs.writeFile(file, bytes);
      const where = { bucket: BUCKET, key: `2026/${name}` };
      await assertAbsent(s3, where);
      // 5 MiB parts (S3's smallest): the large file goes in three.
      await uploadArchive(s3, file, where, 5 * 1024 * 1024);
      await expect(assertAbsent(s3, where)).rejects.toThrow(`Kopia s3://${BUCKET}/2026/${name} już istnieje`);
      const back = path.join(dir, `z-powrotem-${name}`);
      await downloadArchive(s3, where, back);
      expect((await fs.readFile(back)).equals(bytes), name).toBe(true);
      expect((await fs.stat(back)).mode & 0o777).toBe(0o600);
    }
  });

  it("names a missing archive", async () => {
    await expect(downloadArchive(s3, { bucket: BUCKET, key: "nie-ma.tar.gz" }, path.join(dir, "x"))).rejects.toThrow(
      `Nie ma kopii s3://${BUCKET}/nie-ma.tar.gz.`,
    );
  });
});
