import { sql } from "drizzle-orm";
import { db } from "~/services/db.server";

/** Lets the current test log through console.error (e.g. a simulated outage). */
export function allowConsoleError() {
  (globalThis as { __allowConsoleError?: boolean }).__allowConsoleError = true;
}

/** Empties every table of this test file's database. */
export async function resetDatabase() {
  const d = await db();
  await d.execute(
    sql`truncate articles, galleries, gallery_images, gallery_drafts, gallery_draft_images, history_photos, users, sessions, login_failures, login_lockouts, content_version restart identity cascade`,
  );
}

export function request(path: string, init?: RequestInit) {
  return new Request(new URL(path, "http://localhost"), init);
}

/** Calls a loader or action and returns the Response it returned or threw. */
export async function settle(fn: () => unknown): Promise<Response> {
  try {
    const result = await fn();
    if (result instanceof Response) return result;
    throw new Error(`Expected a Response, got ${typeof result}`);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
