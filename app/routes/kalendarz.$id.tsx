import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EventPage } from "~/features/events/event-page";
import { eventJsonLd } from "~/features/events/event-json-ld";
import { eventPage } from "~/features/events/event-page.server";
import { JsonLd, useOrigin } from "~/features/seo/json-ld";
import { seo } from "~/features/seo/seo";

// Also the page of one occurrence of a recurring event (kalendarz.$id_.$day.tsx).
export async function loader({ params }: LoaderFunctionArgs) {
  const { page, status } = await eventPage(params.id, params.day ?? null);
  return data(page, { status });
}

export const meta: MetaFunction<typeof loader> = (args) =>
  args.data?.e
    ? seo(args, { page: args.data.e.title, image: args.data.e.share, imageAlt: args.data.e.title })
    : [...seo(args), { name: "robots", content: "noindex" }];

export default function CalendarEvent() {
  const { e, path, address } = useLoaderData<typeof loader>();
  const origin = useOrigin();
  return (
    <>
      <EventPage e={e} />
      {e && path ? <JsonLd data={eventJsonLd(origin, path, e, address)} /> : null}
    </>
  );
}
