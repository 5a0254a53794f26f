import { desc, eq, sql } from "drizzle-orm";
import { articles } from "~/db/schema";
import { withDb } from "~/db.server";
import { type ImageView, imageView } from "~/images.server";

export const EXCERPT_LENGTH = 180;

export interface ArticleCard {
  id: string;
  header: string;
  date: string;
  excerpt: string;
  image: ImageView | null;
}

export interface ArticleDetail {
  id: string;
  header: string;
  text: string;
  date: string;
  image: ImageView | null;
}

function toImage(row: { imageKey: string | null; imageWidth: number | null; imageHeight: number | null }) {
  return row.imageKey && row.imageWidth && row.imageHeight
    ? imageView({ key: row.imageKey, width: row.imageWidth, height: row.imageHeight })
    : null;
}

/** News cards, newest first; the excerpt is cut in the database so whole bodies never travel. */
export async function listArticleCards(): Promise<ArticleCard[]> {
  const rows = await withDb((db) =>
    db
      .select({
        id: articles.id,
        header: articles.header,
        date: articles.date,
        excerpt: sql<string>`left(${articles.text}, ${EXCERPT_LENGTH + 1})`,
        imageKey: articles.imageKey,
        imageWidth: articles.imageWidth,
        imageHeight: articles.imageHeight,
      })
      .from(articles)
      .orderBy(desc(articles.date), desc(articles.id)),
  );
  return rows.map((r) => ({
    id: r.id,
    header: r.header,
    date: r.date,
    excerpt: excerpt(r.excerpt),
    image: toImage(r),
  }));
}

/** Shortens to EXCERPT_LENGTH characters at a word boundary, with an ellipsis. */
export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= EXCERPT_LENGTH) return flat;
  const cut = flat.slice(0, EXCERPT_LENGTH);
  const space = cut.lastIndexOf(" ");
  return `${(space > EXCERPT_LENGTH / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:–-]+$/, "")}…`;
}

/** Ids are creation times in ms; anything else cannot name an article. */
export function isArticleId(id: string): boolean {
  return /^[0-9A-Za-z_-]{1,64}$/.test(id);
}

export async function getArticle(id: string): Promise<ArticleDetail | null> {
  if (!isArticleId(id)) return null;
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
      })
      .from(articles)
      .where(eq(articles.id, id))
      .limit(1),
  );
  return row ? { id: row.id, header: row.header, text: row.text, date: row.date, image: toImage(row) } : null;
}
