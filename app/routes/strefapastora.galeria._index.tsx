import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { PastorListHeader } from "~/components/pastor";
import { readFlash } from "~/http/flash.server";
import { displayDate } from "~/lib/text";
import { listGalleriesForPastor } from "~/features/galleries/galleries.server";
import { ADD_GALLERY_PATH, galleryPreviewPath, pastorGalleryPath } from "~/lib/paths";
import { PublicationBadge } from "~/features/publishing/publish-controls";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { flash, headers } = await readFlash(request);
  const galleries = (await listGalleriesForPastor()).map((g) => ({
    ...g,
    path: pastorGalleryPath(g.title),
    previewPath: galleryPreviewPath(g.title),
  }));
  return data({ email: user.email, csrf: user.csrf, flash, galleries }, { headers });
}

export default function PastorGalleries() {
  const { email, flash, galleries } = useLoaderData<typeof loader>();
  return (
    <section className="page pastor">
      <PastorListHeader email={email} title="Galeria zborowa" flash={flash} addTo={ADD_GALLERY_PATH} addLabel="dodaj" />
      {galleries.length === 0 ? (
        <p className="empty">Nie ma żadnych zdjęć do wyświetlenia.</p>
      ) : (
        <ul className="album-list">
          {galleries.map((g) => (
            <li key={g.path}>
              <h2>{g.title}</h2>
              <p className="date">{displayDate(g.date)}</p>
              <p>
                <PublicationBadge publication={g.publication} />
              </p>
              {/* A document load: the raw path carries the title exactly. */}
              <a className="button secondary" href={g.path}>
                szczegóły<span className="visually-hidden">: {g.title}</span>
              </a>{" "}
              <a className="button secondary" href={g.previewPath}>
                podgląd<span className="visually-hidden">: {g.title}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
