import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { TransferDetails } from "~/features/giving/donation";
import { JsonLd, useOrigin } from "~/features/seo/json-ld";
import { MapEmbed } from "~/components/map";
import { cookieNotice } from "~/content/church";
import { currentMeetings } from "~/features/events/events.server";
import { pageFacts } from "~/features/church/facts.server";
import { policyAccepted } from "~/http/cookie-notice.server";
import { churchJsonLd } from "~/features/seo/structured-data";
import { ACCEPT_COOKIES_PATH, NEWS_PATH, PRIVACY_PATH } from "~/lib/paths";

export async function loader({ request }: LoaderFunctionArgs) {
  const [accepted, { facts, paymentCodeSrc }, meetings] = await Promise.all([
    policyAccepted(request),
    pageFacts(),
    currentMeetings(),
  ]);
  // The page differs only for visitors who accepted without JavaScript
  // (cookie); everyone else shares one cacheable copy.
  return data(
    { showCookieNotice: !accepted, facts, paymentCodeSrc, meetings },
    { headers: accepted ? { "Cache-Control": "private, no-cache", Vary: "Cookie" } : { Vary: "Cookie" } },
  );
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function Home() {
  const { showCookieNotice, facts, paymentCodeSrc, meetings } = useLoaderData<typeof loader>();
  const { address } = facts;
  const origin = useOrigin();
  return (
    <>
      <JsonLd data={churchJsonLd(origin, facts, meetings)} />
      <section className="hero">
        <blockquote>
          <p>„{facts.verse.text}”</p>
          <footer>{facts.verse.reference}</footer>
        </blockquote>
        <a className="button" href="#witaj">
          Czytaj dalej
        </a>
      </section>

      <section id="witaj" className="page">
        <h1>WITAJ!</h1>
        {facts.welcome.map((p) => (
          <p key={p}>{p}</p>
        ))}
      </section>

      <section className="page" aria-labelledby="spotkania">
        <h2 id="spotkania">Nasze spotkania</h2>
        <ul className="meetings">
          {meetings.map((m) => (
            <li key={m.name}>
              <strong>{m.name}</strong>
              <span>{m.when}</span>
              {m.where ? <span>{m.where}</span> : null}
            </li>
          ))}
        </ul>
      </section>

      <section className="page news-teaser">
        <h2>
          <a href={NEWS_PATH}>Zobacz najnowsze aktualności</a>
        </h2>
      </section>

      <section className="page" aria-labelledby="lokalizacja">
        <h2 id="lokalizacja">Lokalizacja</h2>
        <p>
          {address.street}, {address.postalCode} {address.city}
        </p>
        <MapEmbed src={facts.mapEmbedUrl} />
      </section>

      {facts.bank ? (
        <section className="page" aria-labelledby="wsparcie">
          <h2 id="wsparcie">Wesprzyj nas</h2>
          <p>Jeśli chcesz wesprzeć działalność zboru, możesz przekazać darowiznę na konto:</p>
          <TransferDetails bank={facts.bank} paymentCodeSrc={paymentCodeSrc} />
        </section>
      ) : null}

      {showCookieNotice ? (
        <dialog id="cookie-notice" className="cookie-notice" open aria-labelledby="cookie-notice-title">
          <h2 id="cookie-notice-title">{cookieNotice.heading}</h2>
          <p>
            Klikając „Akceptuję”, zgadzasz się na wykorzystanie plików cookie zgodnie z naszą{" "}
            <a href={PRIVACY_PATH}>Polityką prywatności</a>.
          </p>
          <form method="post" action={ACCEPT_COOKIES_PATH}>
            <button type="submit" className="button">
              {cookieNotice.accept}
            </button>
            <button type="submit" className="close" aria-label="Zamknij">
              ×
            </button>
          </form>
        </dialog>
      ) : null}
    </>
  );
}
