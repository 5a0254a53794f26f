import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ArticleView } from "~/components/article-view";
import { church } from "~/content/church";
import { getArticle } from "~/models/articles.server";

export async function loader({ params }: LoaderFunctionArgs) {
  const article = await getArticle(params.id ?? "");
  return json({ article }, { status: article ? 200 : 404 });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.article ? `${data.article.header} – ${church.name}` : church.name },
];

export default function NewsArticle() {
  const { article } = useLoaderData<typeof loader>();
  return <ArticleView article={article} backTo="/aktualnosci/" />;
}
