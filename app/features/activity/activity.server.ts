// The history of changes: one call records an entry, from any feature, in the
// transaction of the change it describes or on its own.
import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { clock } from "~/services/clock.server";
import { type Db, withDb } from "~/services/db.server";
import { activityLog } from "~/services/schema";
import type { ActivityAction, ActivityEntry, ActivitySubject } from "~/features/activity/actions";

export type { ActivityAction, ActivityEntry, ActivitySubject } from "~/features/activity/actions";

/** Entries older than this are pruned. */
export const ACTIVITY_KEEP_MS = 365 * 24 * 60 * 60 * 1000;

/** Who acted: a signed-in pastor (a SessionUser fits), an e-mail typed at sign-in, or null for the site itself. */
export type Actor = { id?: number | null; email: string } | null;

type Writer = Pick<Db, "insert">;

/**
 * Records one entry. Pass the transaction of the change (`tx`) so the entry
 * and the change commit together, or a pool (`db`):
 *
 *   await recordActivity(tx, { actor: user, action: "published", subject: { kind: "article", id, title } });
 */
export async function recordActivity(
  db: Writer,
  {
    actor,
    action,
    subject = null,
    address = null,
    at = clock.now(),
  }: {
    actor: Actor;
    action: ActivityAction;
    subject?: { kind: ActivitySubject; id: string | number; title: string } | null;
    address?: string | null;
    at?: Date;
  },
): Promise<void> {
  await db.insert(activityLog).values({
    at,
    userId: actor?.id ?? null,
    actor: actor?.email ?? "",
    action,
    subjectKind: subject?.kind ?? null,
    subjectId: subject === null ? null : String(subject.id),
    subjectTitle: subject?.title ?? "",
    address,
  });
}

/** The same through the pool, for callers outside a transaction. */
export function recordActivityNow(entry: Parameters<typeof recordActivity>[1]): Promise<void> {
  return withDb((db) => recordActivity(db, entry));
}

/** The longest typed e-mail a refusal line keeps: enough to recognise it, too little to fill the page. */
export const TYPED_TEXT_MAX = 80;

/**
 * Records a refused sign-in: one line per client address and window, whose
 * count goes up with every further refusal. Whatever e-mail was typed is kept
 * only as quoted data (the last one, cut short), never as the actor, so a
 * flood of made-up e-mails adds no lines and puts no one's name in the history.
 */
export async function recordRefusedSignIn({
  typed,
  address,
  since,
  at = clock.now(),
}: {
  typed: string;
  address: string | null;
  since: Date;
  at?: Date;
}): Promise<void> {
  const shown = Array.from(typed.trim()).slice(0, TYPED_TEXT_MAX).join("");
  await withDb((db) =>
    db.transaction(async (tx) => {
      // Refusals from one address arrive in parallel: one at a time per
      // address, so two never both find no line and add two (whose later
      // updates, each touching both, would deadlock).
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sign_in_refused:${address ?? ""}`}, 0))`);
      const updated = await tx
        .update(activityLog)
        .set({ count: sql`${activityLog.count} + 1`, subjectTitle: shown })
        .where(
          and(
            eq(activityLog.action, "sign_in_refused"),
            address === null ? isNull(activityLog.address) : eq(activityLog.address, address),
            gt(activityLog.at, since),
          ),
        )
        .returning({ id: activityLog.id });
      if (updated.length > 0) return;
      await tx.insert(activityLog).values({
        at,
        actor: "",
        action: "sign_in_refused",
        subjectTitle: shown,
        address,
      });
    }),
  );
}

/** Entries on one page of the history. */
export const ACTIVITY_PAGE_SIZE = 50;

/** One page of the last year's entries, newest first, and whether older ones follow. */
export async function activityPage(
  page: number,
  { now = clock.now() }: { now?: Date } = {},
): Promise<{ entries: ActivityEntry[]; hasOlder: boolean }> {
  const rows = await listActivity({ now, limit: ACTIVITY_PAGE_SIZE + 1, offset: (page - 1) * ACTIVITY_PAGE_SIZE });
  return { entries: rows.slice(0, ACTIVITY_PAGE_SIZE), hasOlder: rows.length > ACTIVITY_PAGE_SIZE };
}

/** The last year's entries, newest first (all of them unless a limit is given). */
export async function listActivity({
  now = clock.now(),
  limit,
  offset = 0,
}: { now?: Date; limit?: number; offset?: number } = {}): Promise<ActivityEntry[]> {
  const rows = await withDb((db) => {
    const query = db
      .select({
        id: activityLog.id,
        at: activityLog.at,
        actor: activityLog.actor,
        action: activityLog.action,
        subjectKind: activityLog.subjectKind,
        subjectTitle: activityLog.subjectTitle,
        address: activityLog.address,
        count: activityLog.count,
      })
      .from(activityLog)
      .where(gt(activityLog.at, new Date(now.getTime() - ACTIVITY_KEEP_MS)))
      .orderBy(desc(activityLog.at), desc(activityLog.id))
      .offset(offset);
    return limit === undefined ? query : query.limit(limit);
  });
  return rows.map((r) => ({ ...r, at: r.at.toISOString() }));
}

/** Removes entries older than a year; returns how many. */
export async function pruneActivity({ now = clock.now() }: { now?: Date } = {}): Promise<number> {
  const removed = await withDb((db) =>
    db
      .delete(activityLog)
      .where(lt(activityLog.at, new Date(now.getTime() - ACTIVITY_KEEP_MS)))
      .returning({ id: activityLog.id }),
  );
  return removed.length;
}
