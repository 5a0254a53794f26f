import type { HeadersFunction, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { FlashMessage } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { PastorBar } from "~/components/pastor";
import { readFlash } from "~/http/flash.server";
import { displayDate } from "~/lib/text";
import { listGalleriesForPastor } from "~/features/galleries/galleries.server";
import { ADD_GALLERY_PATH, PANEL_PATH, pastorGalleryPath } from "~/lib/paths";
import pastorStyles from "~/styles/pastor.css";

export const handle = { hydrate: true };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: pastorStyles }];

export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { flash, headers } = await readFlash(request);
  const galleries = (await listGalleriesForPastor()).map((g) => ({ ...g, path: pastorGalleryPath(g.title) }));
  return data({ email: user.email, csrf: user.csrf, flash, galleries }, { headers });
}

export default function PastorGalleries() {
  const { email, flash, galleries } = useLoaderData<typeof loader>();
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <h1>Galeria zborowa</h1>
      <FlashMessage message={flash} />
      <p className="pastor-actions">
        <Link className="button" to={ADD_GALLERY_PATH}>
          dodaj
        </Link>
        <BackLink to={PANEL_PATH} />
      </p>
      {galleries.length === 0 ? (
        <p className="empty">Nie ma żadnych zdjęć do wyświetlenia.</p>
      ) : (
        <ul className="album-list">
          {galleries.map((g) => (
            <li key={g.path}>
              <h2>{g.title}</h2>
              <p className="date">{displayDate(g.date)}</p>
              {/* A document load: the raw path carries the title exactly. */}
              <a className="button secondary" href={g.path}>
                szczegóły<span className="visually-hidden">: {g.title}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
