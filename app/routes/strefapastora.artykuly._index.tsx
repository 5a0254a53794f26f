import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { ConfirmButton } from "~/components/confirm";
import { PastorListHeader } from "~/components/pastor";
import { CardPhoto } from "~/components/picture";
import { readFlash } from "~/http/flash.server";
import { displayDate } from "~/lib/text";
import { listArticleCards } from "~/features/articles/articles.server";
import { PublicationBadge } from "~/features/publishing/publish-controls";
import { deleteQuestion } from "~/features/articles/messages";
import { ADD_ARTICLE_PATH, articlePreviewPath, editArticlePath, pastorArticlePath } from "~/lib/paths";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { flash, headers } = await readFlash(request);
  const articles = (await listArticleCards({ withUnpublished: true })).map((a) => ({
    ...a,
    question: deleteQuestion(a.header),
  }));
  return data({ email: user.email, csrf: user.csrf, flash, articles }, { headers });
}

export default function PastorArticles() {
  const { email, flash, articles } = useLoaderData<typeof loader>();
  return (
    <section className="page pastor">
      <PastorListHeader
        email={email}
        title="Artykuły"
        flash={flash}
        addTo={ADD_ARTICLE_PATH}
        addLabel="dodaj nowy artykuł"
      />
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
                {a.image ? <CardPhoto image={a.image} first={i === 0} /> : null}
                <h2>{a.header}</h2>
                <p className="date">{displayDate(a.date)}</p>
                <p>
                  <PublicationBadge publication={a.publication} />
                </p>
                <p>{a.excerpt}</p>
                <div className="card-actions">
                  <Link className="button secondary" to={path}>
                    pokaż{which}
                  </Link>
                  <Link className="button secondary" to={articlePreviewPath(a.id)}>
                    podgląd{which}
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
