import crypto from "node:crypto";
import { desc, sql } from "drizzle-orm";
import { church } from "~/content/church";
import { articles, galleries } from "~/services/schema";
import { withDb } from "~/services/db.server";
import { PUBLIC_CACHE, isNotModified } from "~/http/cache.server";
import { shareImage } from "~/services/images.server";
import { RSS_PATH, RSS_TITLE, SITE_DESCRIPTION, absoluteUrl, publishedAt } from "~/features/seo/seo";
import { galleryPath } from "~/lib/text";
import { EXCERPT_LENGTH, excerpt } from "~/features/articles/articles.server";
import { applySecurityHeaders } from "~/http/security-headers.server";
import { type Storage, storage } from "~/services/storage.server";

/** Items in the news feed. */
export const RSS_LIMIT = 50;

// ---------------------------------------------------------------------------
// XML text. Entities rather than CDATA: article text is the pastor's and may
// hold `]]>`, which would end a CDATA section.

// Characters XML 1.0 does not allow at all (control characters, lone
// surrogates, U+FFFE/U+FFFF); dropped rather than making the document invalid.
const NOT_XML = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlText(value: string): string {
  return value
    .replace(NOT_XML, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

function element(name: string, value: string, attributes = ""): string {
  return `<${name}${attributes}>${xmlText(value)}</${name}>`;
}

/** RFC 822 date as RSS 2.0 wants it, e.g. `Sun, 22 Nov 2026 04:02:35 GMT`. */
export function rfc822(date: Date): string {
  return date.toUTCString();
}

// ---------------------------------------------------------------------------
// RSS 2.0 of the news.

export function articleUrl(origin: string, id: string): string {
  return absoluteUrl(origin, `/aktualnosci/${encodeURIComponent(id)}`);
}

/** The newest RSS_LIMIT articles, in the order of the news list (newest first). */
export async function rssFeed(origin: string, store: Storage = storage()): Promise<string> {
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
    element("title", RSS_TITLE),
    element("link", absoluteUrl(origin, "/aktualnosci")),
    element("description", SITE_DESCRIPTION),
    element("language", "pl"),
    `<atom:link href="${xmlText(absoluteUrl(origin, RSS_PATH))}" rel="self" type="application/rss+xml"/>`,
    newest ? element("lastBuildDate", rfc822(newest)) : "",
    ...items,
    "</channel>",
    "</rss>",
    "",
  ].join("\n");
}

// ---------------------------------------------------------------------------
// Sitemap.

/** Public pages that are not articles or albums. */
export const SITEMAP_PAGES = [
  "/",
  "/onas",
  "/aktualnosci",
  "/kalendarz",
  "/sluzby",
  "/galeria",
  "/kontakt",
  "/polityka-prywatnosci",
  ...church.testimonies.map((t) => `/onas/swiadectwa/${t.id}`),
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
        .orderBy(desc(articles.date), desc(articles.id)),
      db
        .select({ title: galleries.title, date: galleries.date, createdAt: galleries.createdAt })
        .from(galleries)
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
  const pages = SITEMAP_PAGES.map((path) => ({
    loc: absoluteUrl(origin, path),
    lastmod: path === "/aktualnosci" ? latest(articleEntries) : path === "/galeria" ? latest(albumEntries) : null,
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

// ---------------------------------------------------------------------------
// robots.txt

/**
 * Crawlers stay out of the pastor area and the uploaded files, except the
 * sharing JPEGs, which social sites fetch for link previews (the longer,
 * more specific rule wins); the sitemap is named.
 */
export function robotsTxt(origin: string): string {
  return [
    "User-agent: *",
    "Disallow: /strefapastora",
    "Disallow: /pliki/",
    "Allow: /pliki/*.jpeg$",
    "Allow: /",
    "",
    `Sitemap: ${absoluteUrl(origin, "/sitemap.xml")}`,
    "",
  ].join("\n");
}

// ---------------------------------------------------------------------------

/**
 * A generated text file with the caching of public pages: shared for a
 * minute, then revalidated with an ETag of its content (304 when unchanged).
 */
export function publicTextResponse(request: Request, body: string, contentType: string): Response {
  const etag = `W/"${crypto.createHash("sha1").update(body).digest("base64url").slice(0, 27)}"`;
  const headers = new Headers({ "Cache-Control": PUBLIC_CACHE, ETag: etag, "Content-Type": contentType });
  applySecurityHeaders(headers);
  if (isNotModified(request, etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { headers });
}
