// 'Nasze spotkania' on the home page and the Church structured data: the
// published recurring events, as meetings. Client-safe (no server imports).
import { type Meeting, type Weekday, meeting } from "~/content/church";

export const DAY_OF_WEEKDAY: Record<Weekday, string> = {
  Monday: "MO",
  Tuesday: "TU",
  Wednesday: "WE",
  Thursday: "TH",
  Friday: "FR",
  Saturday: "SA",
  Sunday: "SU",
};

const WEEKDAY_OF_DAY = new Map(Object.entries(DAY_OF_WEEKDAY).map(([w, d]) => [d, w as Weekday]));

/** What a meeting is made from: a recurring event's rule and place. */
export interface RecurringEvent {
  title: string;
  place: string;
  startTime: string | null;
  endTime: string | null;
  repeat: "none" | "weekly" | "monthly";
  interval: number;
  weekdays: string[];
  monthWeek: number | null;
}

/** A recurring event with a time as a meeting; null for a one-off or all-day one. */
export function meetingOf(e: RecurringEvent): Meeting | null {
  if (e.repeat === "none" || !e.startTime) return null;
  const days = e.weekdays.map((d) => WEEKDAY_OF_DAY.get(d)).filter((d): d is Weekday => d !== undefined);
  if (!days.length) return null;
  return meeting({
    name: e.title,
    days,
    start: e.startTime,
    ...(e.endTime ? { end: e.endTime } : {}),
    ...(e.place ? { where: e.place } : {}),
    ...(e.repeat === "monthly" && e.monthWeek ? { monthWeek: e.monthWeek } : {}),
    ...(e.repeat === "weekly" && e.interval > 1 ? { everyWeeks: e.interval } : {}),
  });
}
