import type { EventPageData } from "~/features/events/event-page";
import { publicFacts, readFacts } from "~/features/church/facts.server";
import { occurrencePage } from "~/features/events/calendar.server";
import { photoViews } from "~/features/events/event-photo.server";
import { CALENDAR_TIME_ZONE } from "~/features/events/recurrence";
import { calendarEventPath } from "~/lib/paths";

/** An instant as schema.org wants it: ISO 8601 with the Warsaw offset (`2026-12-06T10:00:00+01:00`). */
export function withOffset(instant: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone: CALENDAR_TIME_ZONE,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZoneName: "longOffset",
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === "GMT" ? "+00:00" : parts.timeZoneName.slice(3);
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

/** The data of an occurrence's page, and its status (404 with the page's message when there is none). */
export async function eventPage(id: string | undefined, day: string | null) {
  const [found, stored] = await Promise.all([occurrencePage(id ?? "", day), readFacts()]);
  // Where the congregation meets: an event's place when it names none, and the address search engines show.
  const { street, postalCode, city } = publicFacts(stored).address;
  const address = `${street}, ${postalCode} ${city}`;
  if (!found) return { status: 404, page: { e: null as EventPageData | null, path: null as string | null, address } };
  const { event, occurrence: o, label, time } = found;
  const e: EventPageData = {
    id: event.id,
    key: o.key,
    title: event.title,
    description: event.description,
    place: event.place,
    label,
    time,
    cancelled: o.cancelled,
    moved: o.moved,
    start: o.allDay ? o.date : withOffset(o.start),
    end: o.end ? (o.allDay ? null : withOffset(o.end)) : null,
    allDay: o.allDay,
    ...photoViews(event),
  };
  return {
    status: 200,
    page: { e, path: calendarEventPath(event.id, event.repeat === "none" ? null : o.key), address },
  };
}
