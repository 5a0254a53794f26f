// The calendar as iCalendar (RFC 5545), written by ical-generator: the feed
// a phone subscribes to (/kalendarz.ics) and one occurrence to add by hand.
//
// ical-generator writes a time given with a time zone by the Date's local
// fields, which are the server's own zone's: every time passed here is a
// TZDate in Warsaw, so the wall time written is Warsaw's whatever TZ the
// server runs with; the VTIMEZONE tells the reader the rest.
import { TZDate } from "@date-fns/tz";
import { getVtimezoneComponent } from "@touch4it/ical-timezones";
import ical, {
  ICalCalendarMethod,
  ICalEventStatus,
  type ICalCalendar,
  type ICalEventData,
  formatDate,
  formatDateTZ,
} from "ical-generator";
import { clock } from "~/services/clock.server";
import type { CalendarEvent } from "~/features/events/events.server";
import {
  CALENDAR_TIME_ZONE,
  type Occurrence,
  addDays,
  expandEvent,
  icalRule,
  warsawDate,
} from "~/features/events/recurrence";
import { calendarEventPath } from "~/lib/paths";

/** How far the feed reaches: a rule with no end is written as ending a year ahead. */
export const FEED_REACH_DAYS = 365;

function floating(date: string, time: string | null = null): Date {
  const [y, m, d] = date.split("-").map(Number);
  const [h, mi] = time ? time.split(":").map(Number) : [0, 0];
  return new TZDate(y, m - 1, d, h, mi, CALENDAR_TIME_ZONE);
}

/** The stable UID of an event (every occurrence of a recurring one shares it). */
export function eventUid(id: number, host: string): string {
  return `wydarzenie-${id}@${host}`;
}

function calendar(name: string): ICalCalendar {
  return ical({
    name,
    prodId: { company: "zbor-wieliczka", product: "kalendarz", language: "PL" },
    method: ICalCalendarMethod.PUBLISH,
    timezone: { name: CALENDAR_TIME_ZONE, generator: getVtimezoneComponent },
  });
}

/** Start and end of one occurrence, floating; all-day ends are the day after the last. */
function times(o: Pick<Occurrence, "date" | "startTime" | "endTime" | "endDate" | "allDay">) {
  if (o.allDay) return { start: floating(o.date), end: floating(addDays(o.endDate ?? o.date, 1)), allDay: true };
  const end = o.endTime ? floating(o.endTime > o.startTime! ? o.date : addDays(o.date, 1), o.endTime) : undefined;
  return { start: floating(o.date, o.startTime), ...(end ? { end } : {}), allDay: false };
}

function common(e: CalendarEvent, origin: string, key: string | null): Partial<ICalEventData> {
  const url = new URL(calendarEventPath(e.id, e.repeat === "none" ? null : key), origin).href;
  return {
    summary: e.title,
    description: e.description ? `${e.description}\n\n${url}` : url,
    location: e.place || null,
    url,
    sequence: e.sequence,
    // The last change, not the moment of the request: the same data gives the same text (and ETag).
    // With the calendar's time zone set, ical-generator writes it as a wall time too: Warsaw's, as above.
    stamp: new TZDate(e.updatedAt.getTime(), CALENDAR_TIME_ZONE),
    timezone: CALENDAR_TIME_ZONE,
  };
}

/**
 * The EXDATE of removed occurrences, written by ical-generator's own date
 * formatting as DTSTART is: the series' TZID and wall time, or a day
 * (VALUE=DATE) for an all-day event, as RFC 5545 wants it to match DTSTART.
 */
function exdates(e: CalendarEvent, keys: readonly string[]): string[] {
  if (e.startTime === null)
    return keys.map((key) => `EXDATE;VALUE=DATE:${formatDate(CALENDAR_TIME_ZONE, floating(key), true)}`);
  return keys.map((key) =>
    formatDateTZ(CALENDAR_TIME_ZONE, "EXDATE", floating(key, e.startTime), { timezone: CALENDAR_TIME_ZONE }),
  );
}

/**
 * The feed: every event with an occurrence within a year either side of
 * now. A recurring event is one VEVENT with its RRULE and an EXDATE for each
 * occurrence removed from the series; each cancelled or moved occurrence is
 * a VEVENT of its own with the same UID and its RECURRENCE-ID, a cancelled
 * one with STATUS:CANCELLED (subscribers see it marked, as the page lists
 * it), a moved one at its new time.
 */
export function calendarFeed(list: readonly CalendarEvent[], origin: string, name: string, now = clock.now()): string {
  const host = new URL(origin).host;
  const from = new Date(now.getTime() - FEED_REACH_DAYS * 86_400_000);
  const to = new Date(now.getTime() + FEED_REACH_DAYS * 86_400_000);
  const cap = warsawDate(to);
  const cal = calendar(name);
  for (const e of list) {
    const occurrences = expandEvent(e, e.exceptions, from, to, { withRemoved: true });
    if (!occurrences.some((o) => !o.removed)) continue;
    const uid = eventUid(e.id, host);
    const rule = icalRule(e, cap);
    const removed = exdates(
      e,
      occurrences.filter((o) => o.removed).map((o) => o.key),
    );
    cal.createEvent({
      id: uid,
      ...common(e, origin, null),
      ...times({
        date: e.startDate,
        startTime: e.startTime,
        endTime: e.endTime,
        endDate: e.endDate,
        allDay: !e.startTime,
      }),
      // ical-generator writes a text rule's lines as given: the RRULE, then the EXDATEs.
      ...(rule ? { repeating: [`RRULE:${rule}`, ...removed].join("\n") } : {}),
    });
    if (!rule) continue;
    for (const o of occurrences.filter((v) => v.cancelled || v.moved)) {
      cal.createEvent({
        id: uid,
        ...common(e, origin, o.key),
        ...times(o),
        recurrenceId: floating(o.key, e.startTime),
        ...(o.cancelled ? { status: ICalEventStatus.CANCELLED } : {}),
      });
    }
  }
  return cal.toString();
}

/** One occurrence as a calendar file of its own ('dodaj do kalendarza'). */
export function occurrenceIcs(e: CalendarEvent, o: Occurrence, origin: string, name: string): string {
  const host = new URL(origin).host;
  const cal = calendar(name);
  cal.createEvent({
    // Its own UID: added by hand, it must not replace the subscribed series.
    id: e.repeat === "none" ? eventUid(e.id, host) : `wydarzenie-${e.id}-${o.key}@${host}`,
    ...common(e, origin, o.key),
    ...times(o),
    ...(o.cancelled ? { status: ICalEventStatus.CANCELLED } : {}),
  });
  return cal.toString();
}

/** The file name of an occurrence's .ics: `wydarzenie-12-2026-12-06.ics`. */
export const occurrenceFileName = (id: number, key: string) => `wydarzenie-${id}-${key}.ics`;
