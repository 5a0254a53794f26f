import type { MetaFunction } from "@remix-run/node";
import { Embed } from "~/components/embed";
import { calendarEmbedUrl } from "~/content/church";
import { pageTitle, seo } from "~/features/seo/seo";

export const meta: MetaFunction = (args) => seo(args, { title: pageTitle("Kalendarz") });

export default function Calendar() {
  return (
    <div className="page">
      <h1>Kalendarz</h1>
      <Embed className="calendar" title="Kalendarz wydarzeń zboru" src={calendarEmbedUrl} width="800" height="600" />
    </div>
  );
}
