import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useParams } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { ArticleView } from "~/features/articles/article-view";
import { ConfirmPage } from "~/components/confirm";
import { FormError } from "~/components/forms";
import { redirectWithFlash } from "~/http/flash.server";
import { deleteArticle } from "~/features/articles/article-writes.server";
import { getArticle, getArticleHeader } from "~/features/articles/articles.server";
import { ARTICLE_MESSAGES, deleteQuestion } from "~/features/articles/messages";
import { UPLOAD_MESSAGES } from "~/services/upload.server";
import { PASTOR_ARTICLES_PATH, articlePreviewPath, pastorArticlePath } from "~/lib/paths";
import { PublicationBadge } from "~/features/publishing/publish-controls";
import { readSmallForm } from "~/http/small-form.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const article = await getArticle(params.id ?? "", { withUnpublished: true });
  return data({ csrf: user.csrf, article }, { status: article ? 200 : 404 });
}

/**
 * Deleting (the 'usuń' button of the list posts here). With JavaScript the
 * browser has asked already (confirmed=1); without it the first post only
 * answers with the question, rendered by the server.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = params.id ?? "";
  const form = await readSmallForm(request);
  if (form.get("intent") !== "delete") return data({ error: UPLOAD_MESSAGES.malformed }, { status: 400 });

  if (form.get("confirmed") !== "1") {
    const header = await getArticleHeader(id);
    if (header === null) return data({ error: ARTICLE_MESSAGES.notFound }, { status: 404 });
    return { confirm: deleteQuestion(header) };
  }
  const result = await deleteArticle({ id }, { actor: user });
  if (!result.ok) return data({ error: result.message }, { status: result.status });
  return redirectWithFlash(PASTOR_ARTICLES_PATH, "Przeniesiono artykuł do kosza.");
}

export default function PastorArticle() {
  const { article } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { id = "" } = useParams();
  return (
    <>
      {result && "confirm" in result ? (
        <div className="page article">
          <ConfirmPage action={pastorArticlePath(id)} question={result.confirm} cancelTo={PASTOR_ARTICLES_PATH} />
        </div>
      ) : null}
      {result && "error" in result && article ? (
        <div className="page article">
          <FormError message={result.error} />
        </div>
      ) : null}
      {article ? (
        <div className="page article">
          <p>
            <PublicationBadge publication={article.publication} />{" "}
            <Link className="button secondary" to={articlePreviewPath(article.id)}>
              podgląd
            </Link>
          </p>
        </div>
      ) : null}
      <ArticleView article={article} backTo={PASTOR_ARTICLES_PATH} />
    </>
  );
}
