// The history of changes: one call records an entry, from any feature, in the
// transaction of the change it describes or on its own.
import { and, desc, eq, gt, lt } from "drizzle-orm";
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

/** Whether an entry of this action, actor and address was made since `since` (refusals are recorded once per lock-out). */
export async function hasRecentActivity({
  action,
  actor,
  address,
  since,
}: {
  action: ActivityAction;
  actor: string;
  address: string | null;
  since: Date;
}): Promise<boolean> {
  const rows = await withDb((db) =>
    db
      .select({ id: activityLog.id })
      .from(activityLog)
      .where(
        and(
          eq(activityLog.action, action),
          eq(activityLog.actor, actor),
          address === null ? undefined : eq(activityLog.address, address),
          gt(activityLog.at, since),
        ),
      )
      .limit(1),
  );
  return rows.length > 0;
}

/** The last year's entries, newest first (one page; a small site makes a few a day). */
export async function listActivity({ now = clock.now() }: { now?: Date } = {}): Promise<ActivityEntry[]> {
  const rows = await withDb((db) =>
    db
      .select({
        id: activityLog.id,
        at: activityLog.at,
        actor: activityLog.actor,
        action: activityLog.action,
        subjectKind: activityLog.subjectKind,
        subjectTitle: activityLog.subjectTitle,
        address: activityLog.address,
      })
      .from(activityLog)
      .where(gt(activityLog.at, new Date(now.getTime() - ACTIVITY_KEEP_MS)))
      .orderBy(desc(activityLog.at), desc(activityLog.id)),
  );
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
