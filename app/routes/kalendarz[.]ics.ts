import type { LoaderFunctionArgs } from "@remix-run/node";
import { orUnavailable } from "~/http/unavailable.server";
import { publicTextResponse } from "~/http/public-text.server";
import { siteOrigin } from "~/services/config.server";
import { publicEvents } from "~/features/events/events.server";
import { occurrencePage } from "~/features/events/calendar.server";
import { calendarFeed, occurrenceFileName, occurrenceIcs } from "~/features/events/feed.server";

const ICS = "text/calendar; charset=utf-8";
const NAME = "Kalendarz zboru";

/**
 * The calendar to subscribe to; with `?wydarzenie={id}&dzien={day}` one
 * occurrence to add by hand ('dodaj do kalendarza'), as a download.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return orUnavailable(async () => {
    const origin = siteOrigin(request);
    const query = new URL(request.url).searchParams;
    const id = query.get("wydarzenie");
    if (id === null) return publicTextResponse(request, calendarFeed(await publicEvents(), origin, NAME), ICS);
    const found = await occurrencePage(id, query.get("dzien"));
    if (!found) return new Response("Nie ma takiego wydarzenia", { status: 404 });
    // A one-off event's page names no day; its own day is accepted too.
    const res = publicTextResponse(request, occurrenceIcs(found.event, found.occurrence, origin, NAME), ICS);
    res.headers.set(
      "Content-Disposition",
      `attachment; filename="${occurrenceFileName(found.event.id, found.occurrence.key)}"`,
    );
    return res;
  });
}
