import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ArticleView } from "~/features/articles/article-view";
import { JsonLd, useOrigin, useSiteNames } from "~/features/seo/json-ld";
import { publishedAt, seo } from "~/features/seo/seo";
import { newsArticleJsonLd } from "~/features/seo/structured-data";
import { describe } from "~/lib/text";
import { getArticle } from "~/features/articles/articles.server";
import { NEWS_PATH } from "~/lib/paths";

export async function loader({ params }: LoaderFunctionArgs) {
  const article = await getArticle(params.id ?? "");
  const published = article ? (publishedAt(article)?.toISOString() ?? null) : null;
  return data({ article, published }, { status: article ? 200 : 404 });
}

export const meta: MetaFunction<typeof loader> = (args) => {
  const article = args.data?.article;
  return article
    ? seo(args, {
        page: article.header,
        description: describe(article.text),
        type: "article",
        image: article.share,
        imageAlt: article.header,
      })
    : // No such article (404): nothing to index.
      [...seo(args), { name: "robots", content: "noindex" }];
};

export default function NewsArticle() {
  const { article, published } = useLoaderData<typeof loader>();
  const origin = useOrigin();
  const { name: siteName } = useSiteNames();
  return (
    <>
      <ArticleView article={article} backTo={NEWS_PATH} />
      {article ? (
        <JsonLd
          data={newsArticleJsonLd(
            origin,
            {
              id: article.id,
              header: article.header,
              description: describe(article.text),
              published,
              image: article.share,
            },
            siteName,
          )}
        />
      ) : null}
    </>
  );
}
