import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzlePostgres, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { config } from "~/services/config.server";
import { logger } from "~/services/logger.server";
import * as schema from "~/services/schema";

/** Both drivers expose the same query builder; PGlite's is typed as this one. */
export type Db = PostgresJsDatabase<typeof schema>;

/** What a connection is: the query builder, whether migrations created the schema just now, and how to close it. */
export interface Connection {
  db: Db;
  /** True when this start created the schema (an empty database): demo content and the demo account go in. */
  fresh: boolean;
  /** The raw postgres.js client (null on PGlite), for LISTEN and reserved connections. */
  client: postgres.Sql | null;
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

const MIGRATION_LOCK = 7215_2011;

/**
 * Rows of a raw query: postgres.js returns them as an array, PGlite as an
 * object holding them.
 */
export async function rowsOf<T>(db: Pick<Db, "execute">, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (Array.isArray(result) ? result : ((result as { rows?: T[] }).rows ?? [])) as T[];
}

async function isFresh(db: Db) {
  const [row] = await rowsOf<{ fresh: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is null as fresh`,
  );
  return Boolean(row?.fresh);
}

/**
 * Opens postgres.js's socket ourselves, for one reason: a connection that
 * the other end closes cleanly before the server said a word (a proxy or a
 * balancer whose database is gone accepts and hangs up) is retried by
 * postgres.js at once, forever, while the query waits: a request that met
 * the outage would hang until the database returned (and a write would then
 * run long after its answer). Such a close becomes an error here, which
 * fails the waiting query with ECONNRESET instead. The socket is handed over
 * still connecting (postgres.js queues its first message), so every failure
 * reaches postgres.js as the socket's own error and close, which put the
 * connection back in its pool; its connect_timeout still applies.
 */
function openSocket(options: { host: string[]; port: number[]; path?: string | false }): net.Socket {
  const socket = options.path ? net.connect(options.path) : net.connect(options.port[0], options.host[0]);
  socket.once("end", () => {
    if (socket.bytesRead === 0) {
      socket.destroy(Object.assign(new Error("closed before the server answered"), { code: "ECONNRESET" }));
    }
  });
  return socket;
}

async function connectPostgres(url: string): Promise<Connection> {
  const client = postgres(url, {
    max: 10,
    connect_timeout: 5,
    // Supported by postgres.js, missing from its types.
    ...({ socket: openSocket } as object),
    // Idle connections are closed so a stopped server does not wait on them.
    idle_timeout: 20,
    // The default backoff grows to 20 s between reconnects after an outage;
    // a short fixed pause lets pages recover within a second of the database.
    backoff: () => 0.25,
    onnotice: () => {},
  });
  const db = drizzlePostgres(client, { schema });
  try {
    // Several instances may start at once: one migrates, the others wait.
    const lock = await client.reserve();
    let fresh: boolean;
    try {
      await lock`select pg_advisory_lock(${MIGRATION_LOCK})`;
      fresh = await isFresh(db);
      await migratePostgres(db, { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await lock`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
      lock.release();
    }
    return { db, fresh, client, close: () => client.end({ timeout: 10 }) };
  } catch (error) {
    await client.end({ timeout: 1 }).catch(() => {});
    throw error;
  }
}

async function connectPglite(dir: string | null): Promise<Connection> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  if (dir) await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const client = dir ? new PGlite(dir) : new PGlite();
  await client.waitReady;
  const pgliteDb = drizzle(client, { schema });
  const db = pgliteDb as unknown as Db;
  const fresh = await isFresh(db);
  await migrate(pgliteDb, { migrationsFolder: MIGRATIONS_FOLDER });
  return { db, fresh, client: null, close: () => client.close() };
}

/** Opens the configured database and brings its schema up to date (under a lock on PostgreSQL). */
function connect(): Promise<Connection> {
  const { database } = config();
  return database.kind === "postgres" ? connectPostgres(database.url) : connectPglite(database.dir);
}

// One connection per process, shared by the server bundle and, in tests,
// by every module that imports this one.
const globalStore = globalThis as typeof globalThis & { __dbConnection?: Promise<Connection> };

/**
 * The process's connection: opened (and migrated) on first use, or by the
 * boot at start. A failed attempt is forgotten, so the next call tries again.
 */
export function connection(): Promise<Connection> {
  globalStore.__dbConnection ??= connect().catch((error) => {
    globalStore.__dbConnection = undefined;
    throw error;
  });
  return globalStore.__dbConnection;
}

/** The query builder of the process's connection. */
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
    if (e instanceof DatabaseUnavailableError) return e.code;
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

/**
 * The database cannot be reached (not a bad query). Models let it pass or
 * turn it into a Polish message of their own; the server's entry answers it
 * with 503 and Retry-After (see entry.server.tsx), the commands with a line
 * on stderr.
 */
export class DatabaseUnavailableError extends Error {
  constructor(
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(`The database is unavailable (${code})`, options);
    this.name = "DatabaseUnavailableError";
  }
}

/** True when the error means the database cannot be reached, not a bad query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return unavailableCode(error) !== null;
}

/** True when the error is a violation of this unique index (postgres.js or PGlite, wrapped by drizzle or not). */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let e = error as Record<string, unknown> | undefined, depth = 0; e && depth < 5; depth++) {
    if (e.code === "23505") {
      return (
        e.constraint_name === constraint ||
        e.constraint === constraint ||
        String(e.detail ?? e.message).includes(constraint)
      );
    }
    e = e.cause as Record<string, unknown> | undefined;
  }
  return false;
}

// Queries under way, so that shutdown waits for them.
const activity = { inFlight: 0, last: 0 };

/** Runs a query; an unreachable database becomes a DatabaseUnavailableError. */
export async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  activity.inFlight++;
  try {
    return await fn(await db());
  } catch (error) {
    const code = unavailableCode(error);
    if (code && !(error instanceof DatabaseUnavailableError)) {
      // Only the code: a failed query's message carries its parameters.
      logger.warn({ code }, "database unavailable");
      throw new DatabaseUnavailableError(code, { cause: error });
    }
    throw error;
  } finally {
    activity.inFlight--;
    activity.last = Date.now();
  }
}

/**
 * Closes the pool once queries in flight have finished and none started for
 * a moment (the HTTP server has stopped taking requests by then), within
 * `timeoutMs` at most.
 */
export async function drainAndCloseDb(timeoutMs = 9_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && (activity.inFlight > 0 || Date.now() - activity.last < 300)) {
    await new Promise((r) => setTimeout(r, 50));
  }
  await closeDb();
}
