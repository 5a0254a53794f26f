// The sitemap: every public page, article and album.
import { and, desc, isNull } from "drizzle-orm";
import { listTestimonies } from "~/features/church/about.server";
import { articles, galleries } from "~/services/schema";
import { withDb } from "~/services/db.server";
import { absoluteUrl, publishedAt } from "~/features/seo/seo";
import { articleUrl } from "~/features/seo/feed.server";
import { element } from "~/features/seo/xml.server";
import { articleIsPublic, galleryIsPublic } from "~/features/publishing/publication.server";
import {
  ABOUT_PATH,
  CALENDAR_PATH,
  CONTACT_PATH,
  GALLERIES_PATH,
  HOME_PATH,
  MINISTRIES_PATH,
  NEWS_PATH,
  PRIVACY_PATH,
  galleryPath,
  testimonyPath,
} from "~/lib/paths";

/** Public pages that are not articles or albums. */
export const SITEMAP_PAGES = [
  HOME_PATH,
  ABOUT_PATH,
  NEWS_PATH,
  CALENDAR_PATH,
  MINISTRIES_PATH,
  GALLERIES_PATH,
  CONTACT_PATH,
  PRIVACY_PATH,
] as const;

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** W3C datetime of a day or instant, as sitemaps take it. */
function lastmod(date: Date | string | null): string | null {
  if (!date) return null;
  return typeof date === "string" ? date : date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * Every public page, article and album. An article's lastmod is its
 * publication time (see publishedAt), an album's its date (or when it was
 * made, for a legacy date); the news and gallery lists take their newest
 * entry's. Fixed pages carry none: nothing records when they change.
 */
export async function sitemap(origin: string): Promise<string> {
  const [articleRows, albumRows] = await withDb((db) =>
    Promise.all([
      db
        .select({ id: articles.id, date: articles.date, createdAt: articles.createdAt })
        .from(articles)
        .where(and(isNull(articles.deletedAt), articleIsPublic()))
        .orderBy(desc(articles.date), desc(articles.id)),
      db
        .select({ title: galleries.title, date: galleries.date, createdAt: galleries.createdAt })
        .from(galleries)
        .where(and(isNull(galleries.deletedAt), galleryIsPublic()))
        .orderBy(desc(galleries.date), desc(galleries.id)),
    ]),
  );
  const articleEntries = articleRows.map((a) => ({
    loc: articleUrl(origin, a.id),
    lastmod: lastmod(publishedAt(a) ?? a.createdAt),
  }));
  const albumEntries = albumRows.map((g) => ({
    loc: absoluteUrl(origin, galleryPath(g.title)),
    lastmod: lastmod(ISO_DAY.test(g.date) ? g.date : g.createdAt),
  }));
  const latest = (entries: { lastmod: string | null }[]) =>
    entries
      .map((e) => e.lastmod)
      .filter((d): d is string => d !== null)
      .sort()
      .at(-1) ?? null;
  const testimonyPaths = (await listTestimonies()).map((t) => testimonyPath(t.id));
  const pages = [...SITEMAP_PAGES, ...testimonyPaths].map((path) => ({
    loc: absoluteUrl(origin, path),
    lastmod: path === NEWS_PATH ? latest(articleEntries) : path === GALLERIES_PATH ? latest(albumEntries) : null,
  }));
  const urls = [...pages, ...articleEntries, ...albumEntries].map(
    (e) => `<url>${element("loc", e.loc)}${e.lastmod ? element("lastmod", e.lastmod) : ""}</url>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}
