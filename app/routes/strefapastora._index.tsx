import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { PastorBar } from "~/components/pastor";
import { documentOnly } from "~/components/document-only";
import type { RouteHandle } from "~/root";
import { twoFactorEnabled } from "~/features/auth/two-factor.server";
import { purgeOnVisit } from "~/features/bin/bin.server";
import { hidesSamples, readFactsFresh, samplesToFill } from "~/features/church/facts.server";
import {
  ACTIVITY_PATH,
  BIN_PATH,
  DEVICES_PATH,
  LOGIN_PATH,
  PASTOR_ARTICLES_PATH,
  PASTOR_EVENTS_PATH,
  PASTOR_FACTS_PATH,
  PASTOR_GALLERIES_PATH,
  PASTOR_HISTORY_PHOTOS_PATH,
  PASTOR_MINISTRIES_PATH,
  PASTOR_TESTIMONIES_PATH,
  TWO_FACTOR_PATH,
} from "~/lib/paths";

// The panel is a page of links: no script, so it opens at once on a phone;
// the page it leads to brings React along. Opened from a hydrated page, the
// browser loads it as a document (documentOnly).
export const handle: RouteHandle = { hydrate: false };
export const clientLoader = documentOnly;

export async function loader({ request }: LoaderFunctionArgs) {
  // The panel home alone sends strangers to the login page (the original site's rule).
  const user = await requireUser(request, { redirectTo: LOGIN_PATH });
  // What has been in the bin for 30 days goes now, not only at the next start.
  await purgeOnVisit();
  return data(
    {
      email: user.email,
      csrf: user.csrf,
      twoFactor: await twoFactorEnabled(user.id),
      toFill: samplesToFill((await readFactsFresh()).sample),
      samplesHidden: hidesSamples(),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export default function PastorHome() {
  const { email, twoFactor, toFill, samplesHidden } = useLoaderData<typeof loader>();
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <h1>Strefa pastora</h1>
      {twoFactor ? null : (
        <p className="notice">
          Zalecamy włączenie weryfikacji dwuetapowej: samo hasło nie wystarczy wtedy nikomu, kto je pozna.{" "}
          <Link to={TWO_FACTOR_PATH}>Włącz weryfikację dwuetapową</Link>
        </p>
      )}
      {toFill.length ? (
        <p className="notice" id="samples-to-fill">
          Do uzupełnienia: {toFill.join(", ")}.{" "}
          {samplesHidden
            ? "To dane przykładowe – odwiedzający ich nie widzą, dopóki nie wpiszesz prawdziwych. "
            : "To dane przykładowe. "}
          <Link to={PASTOR_FACTS_PATH}>Uzupełnij dane zboru</Link>
        </p>
      ) : null}
      <ul className="pastor-links">
        <li>
          <Link to={PASTOR_ARTICLES_PATH}>lista artykułów</Link>
        </li>
        <li>
          <Link to={PASTOR_GALLERIES_PATH}>galeria zborowa</Link>
        </li>
        <li>
          <Link to={PASTOR_EVENTS_PATH}>wydarzenia (kalendarz)</Link>
        </li>
        <li>
          <Link to={PASTOR_FACTS_PATH}>dane zboru</Link>
        </li>
        <li>
          <Link to={PASTOR_MINISTRIES_PATH}>służby</Link>
        </li>
        <li>
          <Link to={PASTOR_TESTIMONIES_PATH}>świadectwa</Link>
        </li>
        <li>
          <Link to={PASTOR_HISTORY_PHOTOS_PATH}>zdjęcia z historii zboru</Link>
        </li>
        <li>
          <Link to={BIN_PATH}>kosz</Link>
        </li>
        <li>
          <Link to={ACTIVITY_PATH}>historia zmian</Link>
        </li>
        <li>
          <Link to={DEVICES_PATH}>zalogowane urządzenia</Link>
        </li>
        <li>
          <Link to={TWO_FACTOR_PATH}>weryfikacja dwuetapowa</Link>
        </li>
      </ul>
    </section>
  );
}
