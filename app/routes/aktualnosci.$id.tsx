import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ArticleView } from "~/components/article-view";
import { church } from "~/content/church";
import { describe } from "~/lib/text";
import { getArticle } from "~/models/articles.server";

export async function loader({ params }: LoaderFunctionArgs) {
  const article = await getArticle(params.id ?? "");
  return json({ article }, { status: article ? 200 : 404 });
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data?.article
    ? [
        { title: `${data.article.header} – ${church.name}` },
        { name: "description", content: describe(data.article.text) },
      ]
    : [{ title: church.name }];

export default function NewsArticle() {
  const { article } = useLoaderData<typeof loader>();
  return <ArticleView article={article} backTo="/aktualnosci/" />;
}
