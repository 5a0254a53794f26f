// Expanding an event into its occurrences, in Warsaw time.
//
// rrule works on "floating" times here: a Date whose UTC fields are the
// Warsaw wall time (10:00 on a Sunday is 10:00Z). The rule then repeats the
// wall time, and each occurrence is turned into a real instant afterwards,
// so a 10:00 service is at 10:00 on both sides of a clock change (09:00Z in
// winter, 08:00Z in summer). Expanding real instants instead would keep the
// UTC hour and move the service by an hour every March and October.
import { TZDate } from "@date-fns/tz";
import { RRule, type Options, type Weekday } from "rrule";

export const CALENDAR_TIME_ZONE = "Europe/Warsaw";

export type DayCode = "MO" | "TU" | "WE" | "TH" | "FR" | "SA" | "SU";
export const DAY_CODES: readonly DayCode[] = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];

/** What expansion needs of an event (a row of `events`, or a sample). */
export interface EventRule {
  id: number;
  title: string;
  place: string;
  startDate: string;
  startTime: string | null;
  endTime: string | null;
  endDate: string | null;
  repeat: "none" | "weekly" | "monthly";
  interval: number;
  weekdays: string[];
  monthWeek: number | null;
  untilDate: string | null;
  count: number | null;
}

/**
 * One occurrence changed: cancelled (still listed, marked), moved, or
 * removed (taken out of the series: not listed at all, an EXDATE in the feed).
 */
export interface EventException {
  occurrenceDate: string;
  kind: "cancelled" | "moved" | "removed";
  movedDate: string | null;
  movedTime: string | null;
  movedEndTime: string | null;
}

export interface Occurrence {
  eventId: number;
  /** The day the rule gives this occurrence (`YYYY-MM-DD`): its name in addresses and RECURRENCE-ID. */
  key: string;
  /** The day it happens on (differs from `key` when moved). */
  date: string;
  /** `HH:MM`, null for an all-day event. */
  startTime: string | null;
  endTime: string | null;
  /** The last day of a multi-day all-day event. */
  endDate: string | null;
  start: Date;
  /** The end instant (exclusive for all-day events), null when none was given. */
  end: Date | null;
  allDay: boolean;
  cancelled: boolean;
  moved: boolean;
  /** Taken out of the series: only the pastor's pages see it (to put it back). */
  removed: boolean;
}

const pad = (n: number) => String(n).padStart(2, "0");

function parts(date: string): [number, number, number] {
  const [y, m, d] = date.split("-").map(Number);
  return [y, m, d];
}

function hm(time: string): [number, number] {
  const [h, m] = time.split(":").map(Number);
  return [h, m];
}

/** A wall date (and time) as a floating Date. */
function floating(date: string, time: string | null = null): Date {
  const [y, m, d] = parts(date);
  const [h, mi] = time ? hm(time) : [0, 0];
  return new Date(Date.UTC(y, m - 1, d, h, mi));
}

const floatingDate = (f: Date) => `${f.getUTCFullYear()}-${pad(f.getUTCMonth() + 1)}-${pad(f.getUTCDate())}`;

/** The instant of a Warsaw wall time. A time skipped by the clock change reads as the hour after. */
export function warsawInstant(date: string, time: string | null = null): Date {
  const [y, m, d] = parts(date);
  const [h, mi] = time ? hm(time) : [0, 0];
  return new Date(new TZDate(y, m - 1, d, h, mi, 0, CALENDAR_TIME_ZONE).getTime());
}

/** The Warsaw calendar day of an instant, `YYYY-MM-DD`. */
export function warsawDate(instant: Date): string {
  const z = new TZDate(instant.getTime(), CALENDAR_TIME_ZONE);
  return `${z.getFullYear()}-${pad(z.getMonth() + 1)}-${pad(z.getDate())}`;
}

/** A day moved by n days (calendar arithmetic, no time zone involved). */
export function addDays(date: string, n: number): string {
  const f = floating(date);
  f.setUTCDate(f.getUTCDate() + n);
  return floatingDate(f);
}

const RRULE_DAYS: Record<DayCode, Weekday> = {
  MO: RRule.MO,
  TU: RRule.TU,
  WE: RRule.WE,
  TH: RRule.TH,
  FR: RRule.FR,
  SA: RRule.SA,
  SU: RRule.SU,
};

const isDayCode = (v: string): v is DayCode => (DAY_CODES as readonly string[]).includes(v);

/**
 * The rule's options without its start and end: frequency, interval and
 * days. The monthly rule is "the Nth weekday" (BYDAY=1SU; -1 the last).
 */
function ruleCore(e: EventRule): Partial<Options> | null {
  const days = e.weekdays.filter(isDayCode).map((d) => RRULE_DAYS[d]);
  if (e.repeat === "weekly") {
    return {
      freq: RRule.WEEKLY,
      interval: Math.max(1, e.interval),
      byweekday: days.length ? days : null,
      wkst: RRule.MO,
    };
  }
  if (e.repeat === "monthly" && days.length && e.monthWeek) {
    return { freq: RRule.MONTHLY, interval: Math.max(1, e.interval), byweekday: [days[0].nth(e.monthWeek)] };
  }
  return null;
}

/** The rule on floating times (for expansion). */
function floatingRule(e: EventRule): RRule | null {
  const core = ruleCore(e);
  if (!core) return null;
  return new RRule({
    ...core,
    dtstart: floating(e.startDate, e.startTime),
    // Inclusive: the whole of the last day.
    until: e.untilDate ? floating(e.untilDate, "23:59") : null,
    count: e.count ?? null,
  });
}

/**
 * The RRULE value for iCalendar (`FREQ=WEEKLY;BYDAY=TU,FR`), written by
 * rrule. UNTIL is the real instant of the end of the last day (RFC 5545
 * wants UTC when DTSTART has a time zone), or `cap` when the rule has no end.
 */
export function icalRule(e: EventRule, cap?: string): string | null {
  const core = ruleCore(e);
  if (!core) return null;
  const untilDay = e.untilDate ?? (e.count ? null : (cap ?? null));
  const until = untilDay ? new Date(warsawInstant(addDays(untilDay, 1)).getTime() - 1000) : null;
  const text = RRule.optionsToString({ ...core, until, count: e.count ?? null });
  // optionsToString writes "RRULE:…"; ical-generator adds the name itself.
  return text.replace(/^RRULE:/, "");
}

function occurrenceAt(
  e: EventRule,
  key: string,
  date: string,
  startTime: string | null,
  endTime: string | null,
): Omit<Occurrence, "cancelled" | "moved" | "removed"> {
  const allDay = startTime === null;
  if (allDay) {
    const lastDay = e.endDate && e.endDate > e.startDate ? addDays(date, daysBetween(e.startDate, e.endDate)) : date;
    return {
      eventId: e.id,
      key,
      date,
      startTime: null,
      endTime: null,
      endDate: lastDay === date ? null : lastDay,
      start: warsawInstant(date),
      end: warsawInstant(addDays(lastDay, 1)),
      allDay,
    };
  }
  const start = warsawInstant(date, startTime);
  return {
    eventId: e.id,
    key,
    date,
    startTime,
    endTime,
    endDate: null,
    start,
    end: endTime ? warsawInstant(endTime > startTime ? date : addDays(date, 1), endTime) : null,
    allDay,
  };
}

const minutes = (t: string) => hm(t)[0] * 60 + hm(t)[1];
const clockTime = (m: number) =>
  `${pad(Math.floor((((m % 1440) + 1440) % 1440) / 60))}:${pad((((m % 1440) + 1440) % 1440) % 60)}`;

/** A moved occurrence: its new day and time; with no new end it lasts as long as the others. */
function movedOccurrence(e: EventRule, key: string, x: EventException) {
  if (e.startTime === null) return occurrenceAt(e, key, x.movedDate!, null, null);
  const start = x.movedTime ?? e.startTime;
  let end = x.movedEndTime;
  if (!end && e.endTime) end = clockTime(minutes(start) + minutes(e.endTime) - minutes(e.startTime));
  return occurrenceAt(e, key, x.movedDate!, start, end ?? null);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((floating(to).getTime() - floating(from).getTime()) / 86_400_000);
}

/** The days (`YYYY-MM-DD`) the rule gives, between two days inclusive. */
export function ruleDays(e: EventRule, fromDate: string, toDate: string): string[] {
  const rule = floatingRule(e);
  if (!rule) return e.startDate >= fromDate && e.startDate <= toDate ? [e.startDate] : [];
  return rule.between(floating(fromDate), floating(toDate, "23:59"), true).map(floatingDate);
}

/** Whether the rule gives an occurrence on this day. */
export function isRuleDay(e: EventRule, date: string): boolean {
  return ruleDays(e, date, date).length > 0;
}

// A moved occurrence is looked for this many days around the window.
const MOVE_REACH_DAYS = 62;

/**
 * The occurrences of an event that start within [from, to) (instants),
 * exceptions applied: a cancelled one is kept and marked, a moved one is
 * where it was moved to, a removed one is left out (kept and marked only
 * `withRemoved`, for the pastor's pages). An all-day event counts from its
 * day's midnight.
 */
export function expandEvent(
  e: EventRule,
  exceptions: readonly EventException[],
  from: Date,
  to: Date,
  { withRemoved = false }: { withRemoved?: boolean } = {},
): Occurrence[] {
  const byKey = new Map(exceptions.map((x) => [x.occurrenceDate, x]));
  const days = ruleDays(e, addDays(warsawDate(from), -MOVE_REACH_DAYS), addDays(warsawDate(to), MOVE_REACH_DAYS));
  const out: Occurrence[] = [];
  for (const key of days) {
    const x = byKey.get(key);
    const removed = x?.kind === "removed";
    if (removed && !withRemoved) continue;
    const moved = x?.kind === "moved" && x.movedDate !== null;
    const occurrence = moved ? movedOccurrence(e, key, x) : occurrenceAt(e, key, key, e.startTime, e.endTime);
    if (occurrence.start.getTime() < from.getTime() || occurrence.start.getTime() >= to.getTime()) continue;
    out.push({ ...occurrence, cancelled: x?.kind === "cancelled", moved, removed });
  }
  return out.sort((a, b) => a.start.getTime() - b.start.getTime());
}

/** One occurrence by its key (the rule's day), or null when the rule gives none that day or it was removed. */
export function occurrenceOn(e: EventRule, exceptions: readonly EventException[], key: string): Occurrence | null {
  if (!isRuleDay(e, key)) return null;
  const x = exceptions.find((v) => v.occurrenceDate === key);
  if (x?.kind === "removed") return null;
  const moved = x?.kind === "moved" && x.movedDate !== null;
  const o = moved ? movedOccurrence(e, key, x) : occurrenceAt(e, key, key, e.startTime, e.endTime);
  return { ...o, cancelled: x?.kind === "cancelled", moved, removed: false };
}
