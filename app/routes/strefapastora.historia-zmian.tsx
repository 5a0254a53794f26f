import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { church } from "~/content/church";
import { requireUser } from "~/features/auth/auth.server";
import { listActivity } from "~/features/activity/activity.server";
import { activityLabel, actorLabel } from "~/features/activity/actions";
import { purgeOnVisit } from "~/features/bin/bin.server";
import { BackLink } from "~/components/layout";
import { PastorBar } from "~/components/pastor";
import { seo } from "~/features/seo/seo";
import { PANEL_PATH } from "~/lib/paths";
import { displayDateTime } from "~/lib/text";

export const meta: MetaFunction = (args) => seo(args, { page: "Historia zmian" });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // Also prunes entries older than a year.
  await purgeOnVisit();
  const entries = await listActivity();
  return data({ email: user.email, csrf: user.csrf, entries }, { headers: { "Cache-Control": "no-store" } });
}

export default function ActivityHistory() {
  const { email, entries } = useLoaderData<typeof loader>();
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
                <td>{actorLabel(e.actor)}</td>
                <td>{activityLabel(e)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
