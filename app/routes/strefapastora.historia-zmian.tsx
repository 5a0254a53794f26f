import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { church } from "~/content/church";
import { requireUser } from "~/features/auth/auth.server";
import { activityPage } from "~/features/activity/activity.server";
import { activityLabel, actorLabel } from "~/features/activity/actions";
import { purgeOnVisit } from "~/features/bin/bin.server";
import { BackLink } from "~/components/layout";
import { PastorBar } from "~/components/pastor";
import { seo } from "~/features/seo/seo";
import { ACTIVITY_PATH, PANEL_PATH, activityPagePath } from "~/lib/paths";
import { pageParam } from "~/http/form-schemas.server";
import { displayDateTime } from "~/lib/text";

export const meta: MetaFunction = (args) => seo(args, { page: "Historia zmian" });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const raw = new URL(request.url).searchParams.get("strona");
  const page = raw === null ? 1 : pageParam.parse(raw);
  // Also prunes entries older than a year.
  await purgeOnVisit();
  const { entries, hasOlder } = await activityPage(page);
  // Past the last page (or a malformed number): the first page.
  if (page > 1 && entries.length === 0) throw redirect(ACTIVITY_PATH);
  if (raw !== null && String(page) !== raw) throw redirect(activityPagePath(page));
  return data(
    { email: user.email, csrf: user.csrf, entries, page, hasOlder },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export default function ActivityHistory() {
  const { email, entries, page, hasOlder } = useLoaderData<typeof loader>();
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <h1>Historia zmian</h1>
      <p className="pastor-actions">
        <BackLink to={PANEL_PATH} />
      </p>
      <p>Kto i kiedy co zmienił w ostatnim roku, od najnowszych.</p>
      {entries.length === 0 ? (
        <p className="empty">Nie ma jeszcze żadnych wpisów.</p>
      ) : (
        <table className="activity">
          <thead>
            <tr>
              <th scope="col">Kiedy</th>
              <th scope="col">Kto</th>
              <th scope="col">Co</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td>{displayDateTime(e.at, church.timeZone)}</td>
                <td>{actorLabel(e)}</td>
                <td>{activityLabel(e)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {page > 1 || hasOlder ? (
        <nav className="pager" aria-label="Strony historii zmian">
          {page > 1 ? (
            <a href={activityPagePath(page - 1)} rel="prev">
              <span aria-hidden="true">←</span> nowsze
            </a>
          ) : null}
          {hasOlder ? (
            <a href={activityPagePath(page + 1)} rel="next">
              starsze <span aria-hidden="true">→</span>
            </a>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
