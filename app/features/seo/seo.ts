/**
 * What search engines and social sites read from a page: title,
 * description, canonical address, Open Graph and Twitter-card tags, the news
 * feed link, and schema.org structured data (JSON-LD). Every route's `meta`
 * goes through `seo()`, because in Remix v2 a child's meta replaces its
 * parent's rather than adding to it.
 */
import type { MetaArgs, MetaDescriptor } from "@remix-run/node";
import { TIME_ZONE, sampleSiteNames } from "~/content/site";
import type { SiteNames } from "~/features/church/facts";
import { dateFormat, trimEndWhile } from "~/lib/text";
import { NEWS_PATH, RSS_PATH, isPastorPath } from "~/lib/paths";

export const rssTitle = (siteName: string) => `Aktualności – ${siteName}`;
export const siteDescription = (siteName: string) => `${siteName} – nabożeństwa, aktualności, galeria i kontakt.`;

/** An image social sites can show (a raster file; none of them takes SVG). */
export interface SeoImage {
  url: string;
  width: number;
  height: number;
}

export interface SeoOptions {
  /** The page's own name, shown before the congregation's; none on the home page. */
  page?: string;
  /** A whole title, instead of one made from `page`. */
  title?: string;
  description?: string;
  type?: "website" | "article";
  image?: SeoImage | null;
  imageAlt?: string;
}

/** Data of the root loader: the origin absolute addresses are built on, and the names the layout shows. */
export interface RootData {
  origin: string;
  site: SiteNames;
}

export function absoluteUrl(origin: string, pathOrUrl: string): string {
  // Without the root loader's data (an error rendered before it ran) a path stays a path.
  if (!origin) return pathOrUrl;
  return new URL(pathOrUrl, `${origin}/`).href;
}

/** The one address of a page: no trailing slash, no query except the page number of the news list. */
export function canonicalPath(rawPathname: string, search: string): string {
  const pathname = rawPathname.length > 1 ? trimEndWhile(rawPathname, (c) => c === "/") || "/" : rawPathname;
  const page = new URLSearchParams(search).get("strona");
  return pathname === NEWS_PATH && page && page !== "1" ? `${pathname}?strona=${page}` : pathname;
}

type Args = Pick<MetaArgs, "matches" | "location">;

export function originOf(matches: Args["matches"]): string {
  const root = matches.find((m) => m.id === "root")?.data as RootData | undefined;
  return root?.origin ?? "";
}

/** The congregation's name, from the root loader (the sample one before it ran). */
export function siteNameOf(matches: Args["matches"]): string {
  const root = matches.find((m) => m.id === "root")?.data as RootData | undefined;
  return root?.site?.name ?? sampleSiteNames.name;
}

/**
 * A page's title: its own name first, then the congregation's, so tabs,
 * bookmarks and search results tell pages apart. The home page has the
 * congregation's name alone.
 */
export function pageTitle(name: string | undefined, siteName: string): string {
  return name ? `${name} · ${siteName}` : siteName;
}

/** Meta tags of a page; pastor pages get only their title and are kept out of search engines. */
export function seo({ matches, location }: Args, options: SeoOptions = {}): MetaDescriptor[] {
  const siteName = siteNameOf(matches);
  const title = options.title ?? pageTitle(options.page, siteName);
  const origin = originOf(matches);
  // Every page names the news feed, so a reader finds it wherever it starts.
  const feed: MetaDescriptor = {
    tagName: "link",
    rel: "alternate",
    type: "application/rss+xml",
    title: rssTitle(siteName),
    href: absoluteUrl(origin, RSS_PATH),
  };
  if (isPastorPath(location.pathname)) {
    return [{ title }, { name: "robots", content: "noindex, nofollow" }, feed];
  }
  const description = options.description || siteDescription(siteName);
  const url = absoluteUrl(origin, canonicalPath(location.pathname, location.search));
  const image = options.image ? { ...options.image, url: absoluteUrl(origin, options.image.url) } : null;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    feed,
    { property: "og:type", content: options.type ?? "website" },
    { property: "og:site_name", content: siteName },
    { property: "og:locale", content: "pl_PL" },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
  ];
  if (image) {
    tags.push(
      { property: "og:image", content: image.url },
      { property: "og:image:type", content: "image/jpeg" },
      { property: "og:image:width", content: String(image.width) },
      { property: "og:image:height", content: String(image.height) },
      { name: "twitter:image", content: image.url },
    );
    if (options.imageAlt) {
      tags.push(
        { property: "og:image:alt", content: options.imageAlt },
        { name: "twitter:image:alt", content: options.imageAlt },
      );
    }
  }
  return tags;
}

// ---------------------------------------------------------------------------
// Publication time of an article.

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Offset of a time zone from UTC at an instant, in minutes (e.g. 60 or 120 for Warsaw). */
function offsetMinutes(timeZone: string, at: Date): number {
  const name = dateFormat("en-US", { timeZone, timeZoneName: "longOffset" })
    .formatToParts(at)
    .find((p) => p.type === "timeZoneName")?.value;
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? "");
  return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

function dayIn(timeZone: string, at: Date): string {
  return dateFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
}

/** An article id that is a creation time in ms (2000–2100), as the site makes them. */
function idTime(id: string): Date | null {
  if (!/^\d{12,13}$/.test(id)) return null;
  const ms = Number(id);
  return ms >= Date.UTC(2000, 0, 1) && ms < Date.UTC(2100, 0, 1) ? new Date(ms) : null;
}

/**
 * When an article counts as published. Its date (`YYYY-MM-DD`, what the
 * pastor chose) rules: that day in Warsaw, at the time the article was
 * created when it was created that same day, else at noon. A legacy
 * free-text date falls back to the creation time in the id; with neither
 * the time is unknown (null).
 */
export function publishedAt(article: { id: string; date: string }, timeZone: string = TIME_ZONE): Date | null {
  const created = idTime(article.id);
  const m = ISO_DAY.exec(article.date.trim());
  if (!m) return created;
  if (created && dayIn(timeZone, created) === article.date.trim()) return created;
  const noonUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12);
  return new Date(noonUtc - offsetMinutes(timeZone, new Date(noonUtc)) * 60_000);
}

// ---------------------------------------------------------------------------
// Structured data (schema.org as JSON-LD): its text here, for the JsonLd
// component every page can render; the data in structured-data.ts.

/**
 * JSON for a `<script type="application/ld+json">`: `<` is written as
 * \u003c so no text from the pastor can close the script element (or open
 * a comment); the line separators JavaScript once refused are escaped too.
 */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
