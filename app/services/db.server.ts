import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePostgres, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { config } from "~/services/config.server";
import * as schema from "~/services/schema";
import { logger } from "~/services/logger.server";

/** Both drivers expose the same query builder; PGlite's is typed as this one. */
export type Db = PostgresJsDatabase<typeof schema>;

interface Connection {
  db: Db;
  close(): Promise<void>;
}

/**
 * The drizzle/ folder of SQL migrations: the nearest one above this module,
 * which is app/services/ in sources and tests and build/ in the server bundle.
 */
export const MIGRATIONS_FOLDER = findMigrationsFolder(path.dirname(fileURLToPath(import.meta.url)));

function findMigrationsFolder(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "drizzle");
    if (existsSync(path.join(candidate, "meta", "_journal.json"))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`No drizzle/ migrations folder above ${from}`);
  }
}
const migrationsFolder = MIGRATIONS_FOLDER;
const MIGRATION_LOCK = 7215_2011;

async function isFresh(db: Db) {
  const result = await db.execute<{ fresh: boolean }>(
    sql`select to_regclass('drizzle.__drizzle_migrations') is null as fresh`,
  );
  // postgres.js returns the rows, PGlite an object holding them.
  const rows = Array.isArray(result) ? result : (result as unknown as { rows: { fresh: boolean }[] }).rows;
  return Boolean(rows[0]?.fresh);
}

async function connectPostgres(url: string): Promise<Connection & { fresh: boolean }> {
  const client = postgres(url, {
    max: 10,
    connect_timeout: 5,
    // Idle connections are closed so a stopped server does not wait on them.
    idle_timeout: 20,
    // The default backoff grows to 20 s between reconnects after an outage;
    // a short fixed pause lets pages recover within a second of the database.
    backoff: () => 0.25,
    onnotice: () => {},
  });
  const db = drizzlePostgres(client, { schema });
  // Several instances may start at once: one migrates, the others wait.
  const lock = await client.reserve();
  let fresh: boolean;
  try {
    await lock`select pg_advisory_lock(${MIGRATION_LOCK})`;
    fresh = await isFresh(db);
    await migratePostgres(db, { migrationsFolder });
  } finally {
    await lock`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
    lock.release();
  }
  return { db, fresh, close: () => client.end({ timeout: 10 }) };
}

async function connectPglite(dir: string | null): Promise<Connection & { fresh: boolean }> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  if (dir) await fs.mkdir(dir, { recursive: true });
  const client = dir ? new PGlite(dir) : new PGlite();
  await client.waitReady;
  const pgliteDb = drizzle(client, { schema });
  const db = pgliteDb as unknown as Db;
  const fresh = await isFresh(db);
  await migrate(pgliteDb, { migrationsFolder });
  return { db, fresh, close: () => client.close() };
}

async function init(): Promise<Connection> {
  const cfg = config();
  const conn =
    cfg.database.kind === "postgres"
      ? await connectPostgres(cfg.database.url)
      : await connectPglite(cfg.database.dir);
  if (conn.fresh && cfg.seedDemo) {
    const { seedDemoContent } = await import("~/boot/seed.server");
    await seedDemoContent(conn.db);
  }
  const { ensureStartupAccounts } = await import("~/features/auth/users.server");
  await ensureStartupAccounts(conn.db, cfg, { fresh: conn.fresh });
  return conn;
}

const globalStore = globalThis as typeof globalThis & { __dbConnection?: Promise<Connection> };

function connection(): Promise<Connection> {
  globalStore.__dbConnection ??= init().catch((error) => {
    // Let the next request try again instead of caching the failure.
    globalStore.__dbConnection = undefined;
    throw error;
  });
  return globalStore.__dbConnection;
}

/** Connects, migrates and (embedded default) seeds; safe to call repeatedly. */
export async function db(): Promise<Db> {
  return (await connection()).db;
}

export async function closeDb() {
  const pending = globalStore.__dbConnection;
  globalStore.__dbConnection = undefined;
  if (pending) await (await pending.catch(() => null))?.close();
}

const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
]);

function unavailableCode(error: unknown): string | null {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === "string" && UNAVAILABLE_CODES.has(e.code)) return e.code;
    if (e instanceof AggregateError) {
      for (const inner of e.errors) {
        const code = unavailableCode(inner);
        if (code) return code;
      }
    }
    e = e.cause as typeof e;
  }
  return null;
}

/** True when the error means the database cannot be reached, not a bad query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return unavailableCode(error) !== null;
}

// Queries under way, so that shutdown waits for them.
const activity = { inFlight: 0, last: 0 };

/**
 * Runs a query; an unreachable database becomes a 503 response that the
 * error boundary renders in Polish, instead of a 500 with a stack trace.
 */
export async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  activity.inFlight++;
  try {
    return await fn(await db());
  } catch (error) {
    if (isDatabaseUnavailable(error)) {
      // Only the code: a failed query's message carries its parameters.
      logger.warn({ code: unavailableCode(error) }, "database unavailable");
      throw new Response("Baza danych jest chwilowo niedostępna.", {
        status: 503,
        statusText: "Service Unavailable",
        headers: { "Retry-After": "5" },
      });
    }
    throw error;
  } finally {
    activity.inFlight--;
    activity.last = Date.now();
  }
}

/**
 * On SIGTERM remix-serve stops accepting connections; the pool is closed once
 * queries in flight have finished and none started for a moment, so requests
 * under way complete and the process exits by itself (0). Ten seconds at most.
 */
async function drainAndClose() {
  const deadline = Date.now() + 9_000;
  setTimeout(() => process.exit(0), 10_000).unref();
  while (Date.now() < deadline && (activity.inFlight > 0 || Date.now() - activity.last < 300)) {
    await new Promise((r) => setTimeout(r, 50));
  }
  await closeDb();
}

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    void drainAndClose();
  });
}
