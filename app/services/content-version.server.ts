import { eq, sql } from "drizzle-orm";
import { clock } from "~/services/clock.server";
import { type Db, withDb } from "~/services/db.server";
import { logger } from "~/services/logger.server";
import { contentVersion } from "~/services/schema";

/**
 * How fresh what the public pages show is, shared by every app instance
 * through one database row: writers call contentChanged() after their
 * change has committed; readers (the page cache) call contentVersion().
 *
 * Each instance asks the database at most once a second, and learns of its
 * own writes at once. So a page rendered from content older than the last
 * save is never served by the instance that saved, and by another instance
 * for at most a second. A check on demand (rather than LISTEN/NOTIFY) works
 * the same on PostgreSQL and the embedded database and cannot miss a
 * notification while a connection is down.
 */

/** Longest time an instance serves a version it has not checked. */
export const CONTENT_CHECK_MS = 1_000;

const ROW_ID = 1;
let known: { version: number; checkedAt: number } | null = null;
let pending: Promise<number> | null = null;
// Counts this process's own bumps, so a read that started before one of them
// does not put the older number back.
let localBumps = 0;

async function read(): Promise<number> {
  const [row] = await withDb((db) =>
    db.select({ version: contentVersion.version }).from(contentVersion).where(eq(contentVersion.id, ROW_ID)),
  );
  return row?.version ?? 0;
}

/**
 * The current content version, checked against the database at most once
 * every CONTENT_CHECK_MS. Compare it for equality only: a restored backup
 * may set it back.
 */
export async function currentContentVersion(): Promise<number> {
  if (known && Date.now() - known.checkedAt < CONTENT_CHECK_MS) return known.version;
  // One query for all requests arriving together.
  pending ??= (async () => {
    const bumpsBefore = localBumps;
    try {
      const version = await read();
      if (localBumps === bumpsBefore || !known) known = { version, checkedAt: Date.now() };
      return known.version;
    } finally {
      pending = null;
    }
  })();
  return pending;
}

/**
 * Call after a change to public content has committed (not inside its
 * transaction: a reader must never see the new version before the new
 * content). The change itself is done by then, so a failure here is logged
 * rather than reported as a failed save. Commands with a connection of
 * their own (restore) pass it.
 */
export async function contentChanged(own?: Db): Promise<void> {
  try {
    const version = own ? await bump(own) : await withDb(bump);
    localBumps++;
    known = { version, checkedAt: Date.now() };
  } catch (error) {
    logger.error({ err: error }, "marking content as changed failed; cached pages may be stale");
  }
}

async function bump(db: Db): Promise<number> {
  const now = clock.now();
  const [row] = await db
    .insert(contentVersion)
    .values({ id: ROW_ID, version: 1, changedAt: now })
    .onConflictDoUpdate({
      target: contentVersion.id,
      set: { version: sql`${contentVersion.version} + 1`, changedAt: now },
    })
    .returning({ version: contentVersion.version });
  return row.version;
}

/** Forgets what this process knows (tests that change the row behind its back). */
export function forgetContentVersion() {
  known = null;
}
