import { sql } from "drizzle-orm";
import { db, rowsOf } from "~/services/db.server";

/** Lets the current test log through console.error (e.g. a simulated outage). */
export function allowConsoleError() {
  (globalThis as { __allowConsoleError?: boolean }).__allowConsoleError = true;
}

/** Empties every table of this test file's database, whatever tables the migrations made. */
export async function resetDatabase() {
  const d = await db();
  const tables = await rowsOf<{ name: string }>(
    d,
    sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
  );
  if (tables.length === 0) return;
  const names = tables.map((t) => sql`${sql.identifier("public")}.${sql.identifier(t.name)}`);
  await d.execute(sql`truncate ${sql.join(names, sql`, `)} restart identity cascade`);
}

export function request(path: string, init?: RequestInit) {
  return new Request(new URL(path, "http://localhost"), init);
}

/** What `data(value, init)` returns: the value and the status and headers to send it with. */
function isDataWithInit(v: unknown): v is { type: "DataWithResponseInit"; data: unknown; init: ResponseInit | null } {
  return typeof v === "object" && v !== null && (v as { type?: unknown }).type === "DataWithResponseInit";
}

/**
 * Calls a loader or action and returns the Response it returned or threw;
 * data (a plain object, or `data()` with a status and headers) becomes the
 * JSON Response it stands for, so tests read every answer the same way.
 */
export async function settle(fn: () => unknown): Promise<Response> {
  try {
    const result = await fn();
    if (result instanceof Response) return result;
    if (isDataWithInit(result)) return Response.json(result.data, result.init ?? undefined);
    if (typeof result === "object" && result !== null) return Response.json(result);
    throw new Error(`Expected a Response or data, got ${typeof result}`);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
