import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CardPhoto } from "~/components/picture";
import { displayDate } from "~/lib/text";
import { listGalleryCards } from "~/features/galleries/galleries.server";
import { galleryPath } from "~/lib/paths";
import { seo } from "~/features/seo/seo";

export async function loader() {
  return { galleries: await listGalleryCards() };
}

export const meta: MetaFunction = (args) => seo(args, { page: "Galeria zdjęć zborowych" });

export default function Galleries() {
  const { galleries } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <h1>Galeria zdjęć zborowych</h1>
      {galleries.length === 0 ? (
        <p className="empty">Nie ma żadnych zdjęć do wyświetlenia.</p>
      ) : (
        <ul className="cards">
          {galleries.map((g, i) => (
            <li key={g.title} className="card">
              {g.cover ? (
                <CardPhoto image={g.cover} first={i === 0} />
              ) : (
                <img className="card-image" src="/domyslna-okladka.svg" alt="" width={480} height={320} />
              )}
              <h2>{g.title}</h2>
              <p className="date">{displayDate(g.date)}</p>
              {g.description ? <p>{g.description}</p> : null}
              <a className="button" href={galleryPath(g.title)}>
                szczegóły<span className="visually-hidden">: {g.title}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
