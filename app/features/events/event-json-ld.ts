import type { EventPageData } from "~/features/events/event-page";
import { absoluteUrl } from "~/features/seo/seo";

/** An occurrence as a schema.org Event: start with its offset, the place, cancelled when cancelled. */
export function eventJsonLd(origin: string, path: string, e: EventPageData, address: string) {
  return {
    "@context": "https://schema.org",
    "@type": "Event",
    name: e.title,
    url: new URL(path, origin).href,
    startDate: e.start,
    ...(e.end ? { endDate: e.end } : {}),
    ...(e.description ? { description: e.description } : {}),
    ...(e.share ? { image: [absoluteUrl(origin, e.share.url)] } : {}),
    eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
    eventStatus: e.cancelled
      ? "https://schema.org/EventCancelled"
      : e.moved
        ? "https://schema.org/EventRescheduled"
        : "https://schema.org/EventScheduled",
    location: { "@type": "Place", name: e.place || address, address },
  };
}
