import { ARTICLE_SIZES, Photo } from "~/components/picture";
import { BackLink } from "~/components/layout";
import type { ImageView } from "~/lib/image-variants";
import { displayDate, splitLinks } from "~/lib/text";

export interface ArticleViewData {
  header: string;
  text: string;
  date: string;
  image: ImageView | null;
}

/** An article as visitors see it; the pastor area reuses it with its own back link. */
export function ArticleView({ article, backTo }: { article: ArticleViewData | null; backTo: string }) {
  if (!article) {
    return (
      <div className="page article">
        {/* The page's one heading, so a screen reader lands on the message. */}
        <h1 className="empty">nie ma takiego dokumentu</h1>
        <BackLink to={backTo} />
      </div>
    );
  }
  return (
    <article className="page article">
      <BackLink to={backTo} />
      {article.image ? (
        <Photo className="article-image" image={article.image} alt="" sizes={ARTICLE_SIZES} priority />
      ) : null}
      <h1>{article.header}</h1>
      <p className="date">{displayDate(article.date)}</p>
      <div className="prose">
        {splitLinks(article.text).map((part, i) =>
          part.kind === "link" ? (
            <a key={i} href={part.href} target="_blank" rel="noopener noreferrer">
              {part.href}
            </a>
          ) : (
            part.value
          ),
        )}
      </div>
    </article>
  );
}
