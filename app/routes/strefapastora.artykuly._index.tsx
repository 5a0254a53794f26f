import type { HeadersFunction, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { ConfirmButton } from "~/components/confirm";
import { FlashMessage } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { PastorBar } from "~/components/pastor";
import { Photo } from "~/components/picture";
import { readFlash } from "~/http/flash.server";
import { displayDate } from "~/lib/text";
import { listArticleCards } from "~/features/articles/articles.server";
import { deleteQuestion } from "~/features/articles/messages";
import { ADD_ARTICLE_PATH, PANEL_PATH, editArticlePath, pastorArticlePath } from "~/lib/paths";
import pastorStyles from "~/styles/pastor.css";

export const handle = { hydrate: true };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: pastorStyles }];

export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { flash, headers } = await readFlash(request);
  const articles = (await listArticleCards()).map((a) => ({ ...a, question: deleteQuestion(a.header) }));
  return data({ email: user.email, csrf: user.csrf, flash, articles }, { headers });
}

export default function PastorArticles() {
  const { email, flash, articles } = useLoaderData<typeof loader>();
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <h1>Artykuły</h1>
      <FlashMessage message={flash} />
      <p className="pastor-actions">
        <Link className="button" to={ADD_ARTICLE_PATH}>
          dodaj nowy artykuł
        </Link>
        <BackLink to={PANEL_PATH} />
      </p>
      {articles.length === 0 ? (
        <p className="empty">Nie ma żadnych aktualności do wyświetlenia.</p>
      ) : (
        <ul className="cards">
          {articles.map((a, i) => {
            const path = pastorArticlePath(a.id);
            // The header, unseen, tells screen readers which card a button belongs to.
            const which = <span className="visually-hidden">: {a.header}</span>;
            return (
              <li key={a.id} className="card">
                {a.image ? (
                  <Photo
                    className="card-image"
                    image={a.image}
                    alt=""
                    sizes="(min-width: 1050px) 33vw, (min-width: 700px) 50vw, 100vw"
                    eager={i === 0}
                  />
                ) : null}
                <h2>{a.header}</h2>
                <p className="date">{displayDate(a.date)}</p>
                <p>{a.excerpt}</p>
                <div className="card-actions">
                  <Link className="button secondary" to={path}>
                    pokaż{which}
                  </Link>
                  <Link className="button secondary" to={editArticlePath(a.id)}>
                    edytuj{which}
                  </Link>
                  <ConfirmButton action={path} question={a.question}>
                    usuń{which}
                  </ConfirmButton>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
