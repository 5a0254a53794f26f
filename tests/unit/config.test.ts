import path from "node:path";
import { describe, expect, it } from "vitest";
import { readConfig } from "~/services/config.server";

describe("configuration", () => {
  it("defaults to the embedded database and disk storage under ./data", () => {
    const c = readConfig({});
    expect(c.database).toEqual({ kind: "pglite", dir: path.resolve("data/pglite") });
    expect(c.storage).toEqual({ kind: "disk", dir: path.resolve("data/uploads") });
    expect(c.seedDemo).toBe(true);
    expect(c.port).toBe(3000);
  });

  it("uses Postgres when DATABASE_URL is set and never seeds it unless asked", () => {
    const c = readConfig({ DATABASE_URL: "postgres://u@h/db" });
    expect(c.database).toEqual({ kind: "postgres", url: "postgres://u@h/db" });
    expect(c.seedDemo).toBe(false);
    expect(readConfig({ DATABASE_URL: "postgres://u@h/db", SEED_DEMO: "1" }).seedDemo).toBe(true);
  });

  it("names the bad variable in its message", () => {
    expect(() => readConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL: must start with postgres:\/\//);
    expect(() => readConfig({ PORT: "abc" })).toThrow(/PORT/);
    expect(() => readConfig({ STORAGE: "s3" })).toThrow(/S3_BUCKET: is required when STORAGE=s3/);
  });

  it("gives the page cache 32 MB unless PAGE_CACHE_MB says otherwise (0 turns it off)", () => {
    expect(readConfig({}).pageCacheBytes).toBe(32 * 1024 * 1024);
    expect(readConfig({ PAGE_CACHE_MB: "0" }).pageCacheBytes).toBe(0);
    expect(readConfig({ PAGE_CACHE_MB: "0.5" }).pageCacheBytes).toBe(512 * 1024);
    expect(() => readConfig({ PAGE_CACHE_MB: "-1" })).toThrow(/PAGE_CACHE_MB/);
    expect(() => readConfig({ PAGE_CACHE_MB: "dużo" })).toThrow(/PAGE_CACHE_MB/);
  });
});
