import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { ArticleView } from "~/features/articles/article-view";
import { getArticle } from "~/features/articles/articles.server";
import { PreviewBar } from "~/features/publishing/publish-controls";
import { FlashMessage } from "~/components/forms";
import { readFlash } from "~/http/flash.server";
import { seo } from "~/features/seo/seo";
import { PASTOR_ARTICLES_PATH } from "~/lib/paths";

// The article as visitors will see it, also while it is a draft or
// scheduled: the public page answers 404 until then, even to the pastor.
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const article = await getArticle(params.id ?? "", { withUnpublished: true });
  const { flash, headers } = await readFlash(request);
  return data({ article, flash }, { status: article ? 200 : 404, headers });
}

// The pastor area is never indexed (seo() says noindex there).
export const meta: MetaFunction<typeof loader> = (args) =>
  seo(args, { page: args.data?.article ? `Podgląd: ${args.data.article.header}` : undefined });

export default function ArticlePreview() {
  const { article, flash } = useLoaderData<typeof loader>();
  return (
    <>
      <div className="page">
        <FlashMessage message={flash} />
        {article ? <PreviewBar publication={article.publication} /> : null}
      </div>
      <ArticleView article={article} backTo={PASTOR_ARTICLES_PATH} />
    </>
  );
}
