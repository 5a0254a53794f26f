import postgres from "postgres";

export const TEST_SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/**
 * In CI (CI=true) the tests that need PostgreSQL must run, so a missing
 * server fails them rather than letting them be skipped; on a developer's
 * machine without one they fall back to PGlite or are skipped.
 */
export const postgresRequired = /^(1|true)$/i.test(process.env.CI ?? "");

/** True when a Postgres server answers at the test URL. */
export async function postgresAvailable(url = TEST_SERVER_URL): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/**
 * Creates a database beside the test database, empty or a copy of `template`;
 * returns its name, URL and a dropper. The pid in the name lets a later run
 * drop it if this process is killed (tests/setup/leftovers.mjs).
 */
export async function createScratchDatabase(prefix: string, url = TEST_SERVER_URL, template?: string) {
  const name = `${prefix}_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"${template ? ` template "${template}"` : ""}`);
  await admin.end();
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  return {
    name,
    url: dbUrl.toString(),
    async drop() {
      const a = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} });
      await a.unsafe(`drop database if exists "${name}" with (force)`);
      await a.end();
    },
  };
}
