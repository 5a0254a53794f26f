import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Photo } from "~/components/picture";
import { listArticleCards } from "~/models/articles.server";
import { displayDate } from "~/lib/text";

export async function loader() {
  return json({ articles: await listArticleCards() });
}

export default function News() {
  const { articles } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <h1>Aktualności</h1>
      {articles.length === 0 ? (
        <p className="empty">Nie ma żadnych aktualności do wyświetlenia.</p>
      ) : (
        <ul className="cards">
          {articles.map((a, i) => (
            <li key={a.id} className="card">
              {a.image ? (
                <Photo
                  className="card-image"
                  image={a.image}
                  alt=""
                  sizes="(min-width: 1050px) 33vw, (min-width: 700px) 50vw, 100vw"
                  priority={i === 0}
                />
              ) : null}
              <p className="date">{displayDate(a.date)}</p>
              <h2>{a.header}</h2>
              <p>{a.excerpt}</p>
              <a className="more" href={`/aktualnosci/${encodeURIComponent(a.id)}`}>
                zobacz więcej <span aria-hidden="true">→</span>
                <span className="visually-hidden">: {a.header}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
