// What /kalendarz and an occurrence's page show, as plain data: the next
// eight weeks grouped by day, or one month as weeks of days.
import { clock } from "~/services/clock.server";
import { type CalendarEvent, type DatedOccurrence, occurrencesOf, publicEvents } from "~/features/events/events.server";
import { type Occurrence, addDays, occurrenceOn, warsawDate, warsawInstant } from "~/features/events/recurrence";
import { calendarEventPath } from "~/lib/paths";
import { dateFormat, isCalendarDate } from "~/lib/text";

export const UPCOMING_WEEKS = 8;

export interface CalendarItem {
  href: string;
  title: string;
  place: string;
  date: string;
  /** "10:00–12:00", "10:00", or null (all day). */
  time: string | null;
  cancelled: boolean;
  moved: boolean;
}

export interface CalendarDay {
  date: string;
  label: string;
  items: CalendarItem[];
}

const floating = (date: string) => new Date(`${date}T00:00:00Z`);
const dayLabel = (date: string) =>
  dateFormat("pl-PL", { timeZone: "UTC", weekday: "long", day: "numeric", month: "long", year: "numeric" }).format(
    floating(date),
  );

export function timeText(o: Pick<Occurrence, "startTime" | "endTime">): string | null {
  if (!o.startTime) return null;
  return o.endTime ? `${o.startTime}–${o.endTime}` : o.startTime;
}

function item(o: DatedOccurrence): CalendarItem {
  return {
    href: calendarEventPath(o.eventId, o.event.repeat === "none" ? null : o.key),
    title: o.event.title,
    place: o.event.place,
    date: o.date,
    time: timeText(o),
    cancelled: o.cancelled,
    moved: o.moved,
  };
}

function byDay(list: DatedOccurrence[]): Map<string, CalendarItem[]> {
  const days = new Map<string, CalendarItem[]>();
  for (const o of list) days.set(o.date, [...(days.get(o.date) ?? []), item(o)]);
  return days;
}

/** The occurrences from the start of today (Warsaw) for eight weeks, grouped by day. */
export async function upcomingDays(now = clock.now()): Promise<CalendarDay[]> {
  const today = warsawDate(now);
  const list = occurrencesOf(
    await publicEvents({ now }),
    warsawInstant(today),
    warsawInstant(addDays(today, UPCOMING_WEEKS * 7)),
  );
  return [...byDay(list)].map(([date, items]) => ({ date, label: dayLabel(date), items }));
}

/** A month (`YYYY-MM`) that can be shown: years 1900–9999, months 01–12. */
export function readMonth(text: string | null): string | null {
  if (text === null || text.length !== 7 || text[4] !== "-") return null;
  const y = Number(text.slice(0, 4));
  const m = Number(text.slice(5));
  if (!Number.isInteger(y) || !Number.isInteger(m) || y < 1900 || y > 9999 || m < 1 || m > 12) return null;
  return text;
}

const shiftMonth = (month: string, n: number) => {
  const d = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)) - 1 + n, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
};

export interface MonthView {
  month: string;
  label: string;
  prev: string;
  next: string;
  /** Weeks from Monday; a day outside the month is null. */
  weeks: (CalendarDay | null)[][];
}

/** One month as weeks of days (Monday first), each day with its occurrences. */
export async function monthView(month: string, now = clock.now()): Promise<MonthView> {
  const first = `${month}-01`;
  const last = addDays(`${shiftMonth(month, 1)}-01`, -1);
  const days = byDay(occurrencesOf(await publicEvents({ now }), warsawInstant(first), warsawInstant(addDays(last, 1))));
  const weeks: (CalendarDay | null)[][] = [];
  // Monday = 0.
  const lead = (floating(first).getUTCDay() + 6) % 7;
  let week: (CalendarDay | null)[] = Array.from({ length: lead }, () => null);
  for (let date = first; date <= last; date = addDays(date, 1)) {
    week.push({ date, label: dayLabel(date), items: days.get(date) ?? [] });
    if (week.length === 7) {
      weeks.push(week);
      week = [];
    }
  }
  if (week.length) weeks.push([...week, ...Array.from({ length: 7 - week.length }, () => null)]);
  return {
    month,
    label: dateFormat("pl-PL", { timeZone: "UTC", month: "long", year: "numeric" }).format(floating(first)),
    prev: shiftMonth(month, -1),
    next: shiftMonth(month, 1),
    weeks,
  };
}

export interface OccurrencePage {
  event: Pick<
    CalendarEvent,
    "id" | "title" | "description" | "place" | "repeat" | "imageKey" | "imageWidth" | "imageHeight"
  >;
  occurrence: Occurrence;
  label: string;
  time: string | null;
}

/** One event's page: a one-off event by its id, a recurring one's occurrence by its day; null when none. */
export async function occurrencePage(idText: string, day: string | null, now = clock.now()) {
  const id = Number(idText);
  if (!Number.isSafeInteger(id) || id < 1 || String(id) !== idText) return null;
  if (day !== null && !isCalendarDate(day)) return null;
  const [event] = await publicEvents({ id, now });
  if (!event) return null;
  const key = event.repeat === "none" ? event.startDate : day;
  if (!key || (event.repeat === "none" && day !== null && day !== event.startDate)) return null;
  const occurrence = occurrenceOn(event, event.exceptions, key);
  if (!occurrence) return null;
  return { event, occurrence, label: dayLabel(occurrence.date), time: timeText(occurrence) };
}
