// Articles as the pages read them: the news cards, one article, its header.
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { shorten } from "~/lib/text";
import { clock } from "~/services/clock.server";
import { articles } from "~/services/schema";
import { withDb } from "~/services/db.server";
import { type ImageView, type ShareImage, shareImage } from "~/services/images.server";
import type { Publication } from "~/features/publishing/publication";
import { articleIsPublic, publicationOf } from "~/features/publishing/publication.server";
import { storedImageOf, toImage } from "~/features/articles/article-photos.server";

/** Articles not in the bin: every page but the bin shows only these. */
export const liveArticle = isNull(articles.deletedAt);

export const EXCERPT_LENGTH = 180;

export interface ArticleCard {
  id: string;
  header: string;
  date: string;
  excerpt: string;
  image: ImageView | null;
  publication: Publication;
}

export interface ArticleDetail {
  id: string;
  header: string;
  text: string;
  date: string;
  image: ImageView | null;
  /** Bumped by every save; the edit form sends back the one it was opened with. */
  version: number;
  /** The stored photo's key (the edit form sends it back to tell whether the photo changed meanwhile). */
  imageKey: string | null;
  /** The photo for link previews on social sites. */
  share: ShareImage | null;
  publication: Publication;
}

/** Cards on one page of the public news list. */
export const NEWS_PAGE_SIZE = 20;

/**
 * News cards, newest first, optionally one page of them; the excerpt is cut
 * in the database so whole bodies never travel. Only what visitors may see
 * now, unless `withUnpublished` (the pastor's list: drafts and scheduled too).
 */
export async function listArticleCards({
  limit,
  offset = 0,
  withUnpublished = false,
}: { limit?: number; offset?: number; withUnpublished?: boolean } = {}): Promise<ArticleCard[]> {
  const now = clock.now();
  const rows = await withDb((db) => {
    const query = db
      .select({
        id: articles.id,
        header: articles.header,
        date: articles.date,
        excerpt: sql<string>`left(${articles.text}, ${EXCERPT_LENGTH + 1})`,
        imageKey: articles.imageKey,
        imageWidth: articles.imageWidth,
        imageHeight: articles.imageHeight,
        publishAt: articles.publishAt,
      })
      .from(articles)
      .where(withUnpublished ? liveArticle : and(liveArticle, articleIsPublic(now)))
      .orderBy(desc(articles.date), desc(articles.id))
      .offset(offset);
    return limit === undefined ? query : query.limit(limit);
  });
  return rows.map((r) => ({
    id: r.id,
    header: r.header,
    date: r.date,
    excerpt: excerpt(r.excerpt),
    image: toImage(r),
    publication: publicationOf(r.publishAt, now),
  }));
}

/** One page (from 1) of the public news list, and whether older news follow. */
export async function newsPage(page: number): Promise<{ cards: ArticleCard[]; hasOlder: boolean }> {
  // One row more than shown tells whether there is a next page.
  const rows = await listArticleCards({ limit: NEWS_PAGE_SIZE + 1, offset: (page - 1) * NEWS_PAGE_SIZE });
  return { cards: rows.slice(0, NEWS_PAGE_SIZE), hasOlder: rows.length > NEWS_PAGE_SIZE };
}

/** A news card's text: EXCERPT_LENGTH characters at most. */
export function excerpt(text: string): string {
  return shorten(text, EXCERPT_LENGTH);
}

/** Ids are creation times in ms; anything else cannot name an article. */
export function isArticleId(id: string): boolean {
  return /^[0-9A-Za-z_-]{1,64}$/.test(id);
}

/**
 * An article as its page shows it; null when there is none, or (unless
 * `withUnpublished`: the pastor's pages) when visitors may not see it yet.
 */
export async function getArticle(
  id: string,
  { withUnpublished = false }: { withUnpublished?: boolean } = {},
): Promise<ArticleDetail | null> {
  if (!isArticleId(id)) return null;
  const now = clock.now();
  const [row] = await withDb((db) =>
    db
      .select({
        id: articles.id,
        header: articles.header,
        text: articles.text,
        date: articles.date,
        imageKey: articles.imageKey,
        imageWidth: articles.imageWidth,
        imageHeight: articles.imageHeight,
        version: articles.version,
        publishAt: articles.publishAt,
      })
      .from(articles)
      .where(and(eq(articles.id, id), liveArticle, withUnpublished ? undefined : articleIsPublic(now)))
      .limit(1),
  );
  if (!row) return null;
  const stored = storedImageOf(row);
  return {
    id: row.id,
    header: row.header,
    text: row.text,
    date: row.date,
    image: toImage(row),
    share: stored ? shareImage(stored) : null,
    version: row.version,
    imageKey: row.imageKey,
    publication: publicationOf(row.publishAt, now),
  };
}

/** The header alone, for the delete question. */
export async function getArticleHeader(id: string): Promise<string | null> {
  if (!isArticleId(id)) return null;
  const [row] = await withDb((db) =>
    db
      .select({ header: articles.header })
      .from(articles)
      .where(and(eq(articles.id, id), liveArticle))
      .limit(1),
  );
  return row?.header ?? null;
}
