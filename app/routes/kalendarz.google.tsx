// The congregation's Google Calendar, when 'Dane zboru' names one: shown only
// on this page, reached by 'pokaż kalendarz Google' on /kalendarz, so a visitor
// of the site's own calendar gets nothing from Google unless he asks for it.
import { type MetaFunction, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { readFacts } from "~/features/church/facts.server";
import { seo } from "~/features/seo/seo";
import { CALENDAR_PATH } from "~/lib/paths";

export async function loader() {
  const src = (await readFacts()).facts.googleCalendarUrl;
  if (!src) throw redirect(CALENDAR_PATH);
  return { src };
}

export const meta: MetaFunction = (args) => [
  ...seo(args, { page: "Kalendarz Google" }),
  { name: "robots", content: "noindex" },
];

export default function GoogleCalendar() {
  const { src } = useLoaderData<typeof loader>();
  return (
    <div className="page calendar-page">
      <h1>Kalendarz Google</h1>
      <p className="calendar-links">
        <a href={CALENDAR_PATH}>← kalendarz zboru</a>
      </p>
      <div className="embed calendar-box">
        <iframe className="calendar" title="Kalendarz Google" src={src} width="800" height="600" />
      </div>
    </div>
  );
}
