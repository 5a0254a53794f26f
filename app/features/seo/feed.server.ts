// RSS 2.0 of the news.
import { and, desc, isNull, sql } from "drizzle-orm";
import { articles } from "~/services/schema";
import { withDb } from "~/services/db.server";
import { shareImage } from "~/services/images.server";
import { type Storage, storage } from "~/services/storage.server";
import { absoluteUrl, publishedAt, rssTitle, siteDescription } from "~/features/seo/seo";
import { readFacts } from "~/features/church/facts.server";
import { element, rfc822, xmlText } from "~/features/seo/xml.server";
import { EXCERPT_LENGTH, excerpt } from "~/features/articles/articles.server";
import { NEWS_PATH, RSS_PATH, articlePath } from "~/lib/paths";
import { articleIsPublic } from "~/features/publishing/publication.server";

/** Items in the news feed. */
export const RSS_LIMIT = 50;

export function articleUrl(origin: string, id: string): string {
  return absoluteUrl(origin, articlePath(id));
}

/** The newest RSS_LIMIT articles, in the order of the news list (newest first). */
export async function rssFeed(origin: string, store: Storage = storage()): Promise<string> {
  const { facts } = await readFacts();
  const rows = await withDb((db) =>
    db
      .select({
        id: articles.id,
        header: articles.header,
        date: articles.date,
        text: sql<string>`left(${articles.text}, ${EXCERPT_LENGTH + 1})`,
        imageKey: articles.imageKey,
        imageWidth: articles.imageWidth,
        imageHeight: articles.imageHeight,
      })
      .from(articles)
      .where(and(isNull(articles.deletedAt), articleIsPublic()))
      .orderBy(desc(articles.date), desc(articles.id))
      .limit(RSS_LIMIT),
  );
  const items = rows.map((r) => {
    const link = articleUrl(origin, r.id);
    const published = publishedAt(r);
    const image =
      r.imageKey && r.imageWidth && r.imageHeight
        ? shareImage({ key: r.imageKey, width: r.imageWidth, height: r.imageHeight }, store)
        : null;
    return [
      "<item>",
      element("title", r.header),
      element("link", link),
      element("guid", link, ' isPermaLink="true"'),
      published ? element("pubDate", rfc822(published)) : "",
      element("description", excerpt(r.text)),
      image
        ? `<media:content url="${xmlText(absoluteUrl(origin, image.url))}" type="image/jpeg" medium="image" width="${image.width}" height="${image.height}"/>`
        : "",
      "</item>",
    ].join("");
  });
  const newest = rows.map((r) => publishedAt(r)).find((d): d is Date => d !== null);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">',
    "<channel>",
    element("title", rssTitle(facts.name)),
    element("link", absoluteUrl(origin, NEWS_PATH)),
    element("description", siteDescription(facts.name)),
    element("language", "pl"),
    `<atom:link href="${xmlText(absoluteUrl(origin, RSS_PATH))}" rel="self" type="application/rss+xml"/>`,
    newest ? element("lastBuildDate", rfc822(newest)) : "",
    ...items,
    "</channel>",
    "</rss>",
    "",
  ].join("\n");
}
