import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EventPage } from "~/features/events/event-page";
import { eventJsonLd } from "~/features/events/event-json-ld";
import { eventPageLoader } from "~/features/events/event-page.server";
import { JsonLd, useOrigin } from "~/features/seo/json-ld";
import { seo } from "~/features/seo/seo";

export function loader({ params }: LoaderFunctionArgs) {
  return eventPageLoader(params.id, params.day ?? null);
}

export const meta: MetaFunction<typeof loader> = (args) =>
  args.data?.e ? seo(args, { page: args.data.e.title }) : [...seo(args), { name: "robots", content: "noindex" }];

export default function CalendarOccurrence() {
  const { e, path } = useLoaderData<typeof loader>();
  const origin = useOrigin();
  return (
    <>
      <EventPage e={e} />
      {e && path ? <JsonLd data={eventJsonLd(origin, path, e, "Wieliczka")} /> : null}
    </>
  );
}
