import { TZDate } from "@date-fns/tz";
import { and, eq, gt, isNull, lte, min, sql } from "drizzle-orm";
import { clock } from "~/services/clock.server";
import { type Db, withDb } from "~/services/db.server";
import { logger } from "~/services/logger.server";
import { articles, contentVersion, events, galleries } from "~/services/schema";

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
 *
 * Scheduled articles and albums change the pages without any write: each
 * check also learns the next moment one becomes public, and once that moment
 * has passed the next call checks again at once. contentKey() names both, so
 * a page kept before the moment is not served after it.
 */

/** Longest time an instance serves a version it has not checked. */
export const CONTENT_CHECK_MS = 1_000;

const ROW_ID = 1;
interface Known {
  version: number;
  /** The next publication moment (ms) as of the check, or null. */
  nextDue: number | null;
  checkedAt: number;
}
let known: Known | null = null;
let pending: Promise<Known> | null = null;
// Counts this process's own bumps, so a read that started before one of them
// does not put the older number back.
let localBumps = 0;

async function read(): Promise<{ version: number; nextDue: number | null }> {
  return withDb(async (db) => {
    const [[row], due] = await Promise.all([
      db.select({ version: contentVersion.version }).from(contentVersion).where(eq(contentVersion.id, ROW_ID)),
      nextDueMoment(db),
    ]);
    return { version: row?.version ?? 0, nextDue: due?.getTime() ?? null };
  });
}

const isFresh = (k: Known) =>
  Date.now() - k.checkedAt < CONTENT_CHECK_MS && (k.nextDue === null || clock.now().getTime() < k.nextDue);

async function check(): Promise<Known> {
  if (known && isFresh(known)) return known;
  // One query for all requests arriving together.
  pending ??= (async () => {
    const bumpsBefore = localBumps;
    try {
      const fresh = await read();
      if (localBumps === bumpsBefore || !known) known = { ...fresh, checkedAt: Date.now() };
      return known;
    } finally {
      pending = null;
    }
  })();
  return pending;
}

/**
 * The current content version, checked against the database at most once
 * every CONTENT_CHECK_MS. Compare it for equality only: a restored backup
 * may set it back.
 */
export async function currentContentVersion(): Promise<number> {
  return (await check()).version;
}

/**
 * What public pages are made of, as a text to compare for equality: the
 * content version and the next publication moment. It changes on every save
 * and whenever a scheduled item becomes public.
 */
export async function contentKey(): Promise<string> {
  const k = await check();
  return k.nextDue === null ? String(k.version) : `${k.version}@${k.nextDue}`;
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
    const { version, nextDue } = own ? await bump(own) : await withDb(bump);
    localBumps++;
    known = { version, nextDue, checkedAt: Date.now() };
  } catch (error) {
    logger.error({ err: error }, "marking content as changed failed; cached pages may be stale");
  }
}

async function bump(db: Db): Promise<{ version: number; nextDue: number | null }> {
  const now = clock.now();
  const [row] = await db
    .insert(contentVersion)
    .values({ id: ROW_ID, version: 1, changedAt: now })
    .onConflictDoUpdate({
      target: contentVersion.id,
      set: { version: sql`${contentVersion.version} + 1`, changedAt: now },
    })
    .returning({ version: contentVersion.version });
  // The save may have scheduled (or unscheduled) the next publication.
  const due = await nextDueMoment(db);
  return { version: row.version, nextDue: due?.getTime() ?? null };
}

/** Forgets what this process knows (tests that change the row behind its back). */
export function forgetContentVersion() {
  known = null;
}

/**
 * The earliest moment still ahead at which an article or album becomes
 * public, or null: what a page made now shows is valid until then.
 */
export async function nextDueMoment(db?: Pick<Db, "select">, now: Date = clock.now()): Promise<Date | null> {
  if (!db) return withDb((pool) => nextDueMoment(pool, now));
  const [[a], [g], [e], [live]] = await Promise.all([
    db
      .select({ at: min(articles.publishAt) })
      .from(articles)
      .where(gt(articles.publishAt, now)),
    db
      .select({ at: min(galleries.publishAt) })
      .from(galleries)
      .where(gt(galleries.publishAt, now)),
    db
      .select({ at: min(events.publishAt) })
      .from(events)
      .where(and(gt(events.publishAt, now), isNull(events.deletedAt))),
    db
      .select({ id: events.id })
      .from(events)
      .where(and(lte(events.publishAt, now), isNull(events.deletedAt)))
      .limit(1),
  ]);
  // The calendar's lists start at today: with any event published, pages are
  // made again after the next Warsaw midnight, as after a scheduled article.
  const midnight = live ? nextWarsawMidnight(now) : null;
  // An aggregate may come back as text from some drivers: read either.
  const times = [a?.at, g?.at, e?.at, midnight]
    .filter((t) => t !== null && t !== undefined)
    .map((t) => new Date(t as Date | string).getTime())
    .filter((t) => Number.isFinite(t));
  return times.length ? new Date(Math.min(...times)) : null;
}

/** The first instant of the next day in Warsaw. */
export function nextWarsawMidnight(now: Date): Date {
  const z = new TZDate(now.getTime(), "Europe/Warsaw");
  return new Date(new TZDate(z.getFullYear(), z.getMonth(), z.getDate() + 1, 0, 0, 0, "Europe/Warsaw").getTime());
}
