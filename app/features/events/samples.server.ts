// A new site's sample events: today's three weekly meetings, written once at
// start-up (not by a migration: a restored backup brings its own events and
// must not get a second copy). A row in image_backfills, the table of
// one-time start-up jobs, marks it done, so events the pastor removes do not
// come back at the next start.
import { eq, sql } from "drizzle-orm";
import { type Weekday, church } from "~/content/church";
import { clock } from "~/services/clock.server";
import { contentChanged } from "~/services/content-version.server";
import type { Db } from "~/services/db.server";
import { events, imageBackfills } from "~/services/schema";
import { warsawDate } from "~/features/events/recurrence";
import { DAY_OF_WEEKDAY } from "~/features/events/meetings";

export const SAMPLE_EVENTS_JOB = "sample-events";

export async function seedSampleEvents(db: Db): Promise<void> {
  const seeded = await db.transaction(async (tx) => {
    // Two instances starting together: one seeds, the other then finds the mark.
    await tx.execute(sql`select pg_advisory_xact_lock(${0x65766e74})`);
    const [done] = await tx
      .select({ name: imageBackfills.name })
      .from(imageBackfills)
      .where(eq(imageBackfills.name, SAMPLE_EVENTS_JOB));
    if (done) return false;
    const now = clock.now();
    const [any] = await tx.select({ id: events.id }).from(events).limit(1);
    // A site that has events already (a restored backup) keeps just those.
    if (!any) {
      await tx.insert(events).values(
        church.meetings.map((m) => ({
          title: m.name,
          place: m.where ?? "",
          startDate: warsawDate(now),
          startTime: m.start,
          endTime: m.end ?? null,
          repeat: "weekly" as const,
          weekdays: m.days.map((d: Weekday) => DAY_OF_WEEKDAY[d]),
          publishAt: now,
          createdAt: now,
          updatedAt: now,
        })),
      );
    }
    await tx.insert(imageBackfills).values({ name: SAMPLE_EVENTS_JOB, doneAt: now });
    return !any;
  });
  if (seeded) await contentChanged(db);
}
