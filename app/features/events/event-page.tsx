// One occurrence's page: /kalendarz/{id} for a one-off event,
// /kalendarz/{id}/{day} for an occurrence of a recurring one.
import { ARTICLE_SIZES, Photo } from "~/components/picture";
import type { ImageView } from "~/lib/image-variants";
import { splitLinks } from "~/lib/text";
import { CALENDAR_FEED_PATH, CALENDAR_PATH } from "~/lib/paths";

export interface EventPageData {
  id: number;
  key: string;
  title: string;
  description: string;
  place: string;
  label: string;
  time: string | null;
  cancelled: boolean;
  moved: boolean;
  start: string;
  end: string | null;
  allDay: boolean;
  /** The event's photo, shown with the title as its description. */
  image: ImageView | null;
  /** The photo as social sites and search engines take it (a JPEG). */
  share: { url: string; width: number; height: number } | null;
}

/** The one-event .ics of an occurrence ('dodaj do kalendarza'). */
export const occurrenceIcsPath = (id: number, key: string) => `${CALENDAR_FEED_PATH}?wydarzenie=${id}&dzien=${key}`;

export function EventPage({ e }: { e: EventPageData | null }) {
  if (!e) {
    return (
      <div className="page">
        <h1>Nie ma takiego wydarzenia</h1>
        <p>
          <a href={CALENDAR_PATH}>wróć do kalendarza</a>
        </p>
      </div>
    );
  }
  return (
    <article className="page event">
      <p>
        <a href={CALENDAR_PATH}>← Kalendarz</a>
      </p>
      <h1>{e.title}</h1>
      {e.cancelled ? <p className="cancelled-note">Odwołane</p> : null}
      <p>
        <strong>{e.label}</strong>
        {e.time ? `, godz. ${e.time}` : ", cały dzień"}
        {e.moved && !e.cancelled ? " (przeniesione)" : null}
      </p>
      {e.place ? <p>{e.place}</p> : null}
      {e.image ? (
        <Photo className="article-image" image={e.image} alt={e.title} sizes={ARTICLE_SIZES} priority />
      ) : null}
      {e.description
        ? e.description.split(/\n{2,}/).map((para, i) => (
            <p key={i}>
              {splitLinks(para).map((part, j) =>
                part.kind === "link" ? (
                  <a key={j} href={part.href} target="_blank" rel="noopener noreferrer">
                    {part.href}
                  </a>
                ) : (
                  <span key={j}>{part.value}</span>
                ),
              )}
            </p>
          ))
        : null}
      <p>
        <a href={occurrenceIcsPath(e.id, e.key)} download>
          dodaj do kalendarza
        </a>
      </p>
    </article>
  );
}
