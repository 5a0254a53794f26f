// The S3 the tests run against: an s3rver on 127.0.0.1 (a free port unless
// one is given, e.g. to restart it where the app expects it), with its
// buckets made at start.
import S3rver from "s3rver";
import { s3Storage } from "~/services/storage.server";

/** What s3rver accepts; the app reads them as any AWS credentials. */
export const S3_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export async function startS3({
  directory,
  port = 0,
  buckets = [],
}: {
  directory: string;
  port?: number;
  buckets?: string[];
}) {
  const server = new S3rver({
    address: "127.0.0.1",
    port,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  });
  const bound = (await server.run()).port;
  const endpoint = `http://127.0.0.1:${bound}`;
  return {
    server,
    port: bound,
    endpoint,
    /** The app's storage on one bucket of this server. */
    storage: (bucket: string) =>
      s3Storage({ bucket, region: "us-east-1", endpoint, forcePathStyle: true, credentials: S3_CREDENTIALS }),
    close: () => server.close(),
  };
}
