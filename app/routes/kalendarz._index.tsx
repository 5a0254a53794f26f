import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { seo } from "~/features/seo/seo";
import { type CalendarItem, monthView, readMonth, upcomingDays } from "~/features/events/calendar.server";
import { siteOrigin } from "~/services/config.server";
import { clock } from "~/services/clock.server";
import { warsawDate } from "~/features/events/recurrence";
import { readFacts } from "~/features/church/facts.server";
import {
  CALENDAR_FEED_PATH,
  CALENDAR_GOOGLE_ID,
  CALENDAR_PATH,
  calendarMonthPath,
  calendarWithGooglePath,
} from "~/lib/paths";

export async function loader({ request }: LoaderFunctionArgs) {
  const origin = new URL(siteOrigin(request));
  const feed = {
    webcal: `webcal://${origin.host}${CALENDAR_FEED_PATH}`,
    https: `${origin.origin}${CALENDAR_FEED_PATH}`,
  };
  const query = new URL(request.url).searchParams;
  const month = readMonth(query.get("miesiac"));
  const current = warsawDate(clock.now()).slice(0, 7);
  const src = (await readFacts()).facts.googleCalendarUrl;
  // The Google Calendar's address is in the page only once asked for (`?google=1`).
  const google = src ? { href: calendarWithGooglePath(month), src: query.get("google") === "1" ? src : null } : null;
  if (month) return { feed, current, google, month: await monthView(month), upcoming: null };
  return { feed, current, google, month: null, upcoming: await upcomingDays() };
}

export const meta: MetaFunction = (args) => seo(args, { page: "Kalendarz" });

function Item({ item }: { item: CalendarItem }) {
  return (
    <li className={item.cancelled ? "cancelled" : undefined}>
      {item.time ? <span className="time">{item.time}</span> : <span className="time">cały dzień</span>}{" "}
      <a href={item.href}>{item.title}</a>
      {item.cancelled ? <strong> — odwołane</strong> : null}
      {item.moved && !item.cancelled ? <em> (przeniesione)</em> : null}
      {item.place ? <span className="place">{item.place}</span> : null}
    </li>
  );
}

const WEEKDAYS = ["Pn", "Wt", "Śr", "Cz", "Pt", "So", "Nd"];
const WEEKDAY_NAMES = ["poniedziałek", "wtorek", "środa", "czwartek", "piątek", "sobota", "niedziela"];

export default function Calendar() {
  const { feed, current, google, month, upcoming } = useLoaderData<typeof loader>();
  return (
    <div className="page calendar-page">
      <h1>Kalendarz</h1>
      <p className="calendar-links">
        {month ? (
          <a href={CALENDAR_PATH}>najbliższe tygodnie</a>
        ) : (
          <a href={calendarMonthPath(current)}>widok miesiąca</a>
        )}
        {" · "}
        <a href={feed.webcal}>subskrybuj</a> (<a href={feed.https}>plik .ics</a>)
      </p>
      {upcoming ? (
        upcoming.length ? (
          upcoming.map((day) => (
            <section key={day.date} aria-labelledby={`d${day.date}`}>
              <h2 id={`d${day.date}`}>{day.label}</h2>
              <ul className="occurrences">
                {day.items.map((item) => (
                  <Item key={item.href} item={item} />
                ))}
              </ul>
            </section>
          ))
        ) : (
          <p>Brak wydarzeń w najbliższych tygodniach.</p>
        )
      ) : null}
      {month ? (
        <>
          <nav className="month-nav" aria-label="Miesiące">
            <a href={calendarMonthPath(month.prev)} rel="prev">
              ← poprzedni miesiąc
            </a>
            <a href={calendarMonthPath(month.next)} rel="next">
              następny miesiąc →
            </a>
          </nav>
          <table className="month">
            <caption>{month.label}</caption>
            <thead>
              <tr>
                {WEEKDAYS.map((d, i) => (
                  <th key={d} scope="col">
                    <abbr title={WEEKDAY_NAMES[i]}>{d}</abbr>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {month.weeks.map((week) => (
                <tr key={week.find((d) => d)?.date}>
                  {week.map((day, i) =>
                    day ? (
                      <td key={day.date}>
                        <span className="day" aria-label={day.label}>
                          {Number(day.date.slice(8))}
                        </span>
                        {day.items.length ? (
                          <ul className="occurrences">
                            {day.items.map((item) => (
                              <Item key={item.href} item={item} />
                            ))}
                          </ul>
                        ) : null}
                      </td>
                    ) : (
                      <td key={`pusty-${i}`} />
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      {google?.src ? (
        <section id={CALENDAR_GOOGLE_ID} aria-labelledby={`${CALENDAR_GOOGLE_ID}-h`}>
          <h2 id={`${CALENDAR_GOOGLE_ID}-h`}>Kalendarz Google</h2>
          <div className="embed calendar-box">
            <iframe className="calendar" title="Kalendarz Google" src={google.src} width="800" height="600" />
          </div>
        </section>
      ) : google ? (
        <p className="calendar-links">
          {/* A link to this page with the calendar below: nothing is fetched from Google until the visitor asks. */}
          <a href={google.href}>pokaż kalendarz Google</a>
        </p>
      ) : null}
    </div>
  );
}
