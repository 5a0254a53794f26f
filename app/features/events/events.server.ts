// Reading the calendar: the events visitors may see now, with their
// exceptions, expanded into occurrences for a window.
import { and, eq, inArray, isNull } from "drizzle-orm";
import { clock } from "~/services/clock.server";
import { withDb } from "~/services/db.server";
import { eventExceptions, events } from "~/services/schema";
import { visibleNow } from "~/features/publishing/publication.server";
import type { Meeting } from "~/content/church";
import { meetingOf } from "~/features/events/meetings";
import { type EventException, type EventRule, type Occurrence, expandEvent } from "~/features/events/recurrence";

export interface CalendarEvent extends EventRule {
  description: string;
  imageKey: string | null;
  imageWidth: number | null;
  imageHeight: number | null;
  sequence: number;
  updatedAt: Date;
  exceptions: EventException[];
}

export interface DatedOccurrence extends Occurrence {
  event: CalendarEvent;
}

/** Events not in the bin. */
export const liveEvent = isNull(events.deletedAt);
export const eventIsPublic = (now?: Date) => visibleNow(events.publishAt, now);

/** An event's rule, text and photo: what the calendar and the pastor's pages both read of a row. */
export const eventColumns = {
  id: events.id,
  title: events.title,
  description: events.description,
  place: events.place,
  startDate: events.startDate,
  startTime: events.startTime,
  endTime: events.endTime,
  endDate: events.endDate,
  imageKey: events.imageKey,
  imageWidth: events.imageWidth,
  imageHeight: events.imageHeight,
  repeat: events.repeat,
  interval: events.interval,
  weekdays: events.weekdays,
  monthWeek: events.monthWeek,
  untilDate: events.untilDate,
  count: events.count,
  sequence: events.sequence,
};

const calendarColumns = { ...eventColumns, updatedAt: events.updatedAt };

/** Every event visitors may see now (or one of them), each with its exceptions. */
export async function publicEvents({ id, now = clock.now() }: { id?: number; now?: Date } = {}): Promise<
  CalendarEvent[]
> {
  return withDb(async (db) => {
    const rows = await db
      .select(calendarColumns)
      .from(events)
      .where(and(liveEvent, eventIsPublic(now), id === undefined ? undefined : eq(events.id, id)))
      .orderBy(events.id);
    if (!rows.length) return [];
    const xs = await db
      .select()
      .from(eventExceptions)
      .where(
        inArray(
          eventExceptions.eventId,
          rows.map((r) => r.id),
        ),
      );
    return rows.map((r) => ({ ...r, exceptions: xs.filter((x) => x.eventId === r.id) }));
  });
}

/** The occurrences of these events that start within [from, to), in time order. */
export function occurrencesOf(list: readonly CalendarEvent[], from: Date, to: Date): DatedOccurrence[] {
  return list
    .flatMap((event) => expandEvent(event, event.exceptions, from, to).map((o) => ({ ...o, event })))
    .sort((a, b) => a.start.getTime() - b.start.getTime() || a.event.title.localeCompare(b.event.title, "pl"));
}

/**
 * The recurring meetings for 'Nasze spotkania' and the Church structured
 * data: published recurring events with a time that still have an
 * occurrence in the coming year (a cancelled one counts, a removed one does
 * not), in the order they were added.
 */
export async function currentMeetings(now = clock.now()): Promise<Meeting[]> {
  const list = await publicEvents({ now });
  const yearAhead = new Date(now.getTime() + 365 * 86_400_000);
  return list
    .filter(
      (e) =>
        e.repeat !== "none" &&
        expandEvent(
          e,
          e.exceptions.filter((x) => x.kind === "removed"),
          now,
          yearAhead,
        ).length > 0,
    )
    .map(meetingOf)
    .filter((m): m is Meeting => m !== null);
}
