import type { MetaFunction } from "@remix-run/node";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageParam } from "~/http/form-schemas.server";
import { CardPhoto } from "~/components/picture";
import { displayDate } from "~/lib/text";
import { newsPage } from "~/features/articles/articles.server";
import { NEWS_PATH, articlePath, newsPagePath } from "~/lib/paths";
import { seo } from "~/features/seo/seo";

export async function loader({ request }: LoaderFunctionArgs) {
  const raw = new URL(request.url).searchParams.get("strona");
  const page = raw === null ? 1 : pageParam.parse(raw);
  const { cards, hasOlder } = await newsPage(page);
  // Past the last page (or a malformed number): the first page.
  if (page > 1 && cards.length === 0) throw redirect(NEWS_PATH);
  if (raw !== null && String(page) !== raw) throw redirect(newsPagePath(page));
  return { articles: cards, page, hasOlder };
}

export const meta: MetaFunction = (args) => seo(args, { page: "Aktualności" });

export default function News() {
  const { articles, page, hasOlder } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <h1>Aktualności</h1>
      {articles.length === 0 ? (
        <p className="empty">Nie ma żadnych aktualności do wyświetlenia.</p>
      ) : (
        <ul className="cards">
          {articles.map((a, i) => (
            <li key={a.id} className="card">
              {a.image ? <CardPhoto image={a.image} first={i === 0} /> : null}
              <p className="date">{displayDate(a.date)}</p>
              <h2>{a.header}</h2>
              <p>{a.excerpt}</p>
              <a className="more" href={articlePath(a.id)}>
                zobacz więcej <span aria-hidden="true">→</span>
                <span className="visually-hidden">: {a.header}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
      {page > 1 || hasOlder ? (
        <nav className="pager" aria-label="Strony aktualności">
          {page > 1 ? (
            <a href={newsPagePath(page - 1)} rel="prev">
              <span aria-hidden="true">←</span> nowsze
            </a>
          ) : null}
          {hasOlder ? (
            <a href={newsPagePath(page + 1)} rel="next">
              starsze <span aria-hidden="true">→</span>
            </a>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
