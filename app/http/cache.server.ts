import crypto from "node:crypto";
import type { EntryContext, HeadersFunction } from "@remix-run/node";
import { isPastorPath } from "~/lib/paths";
import { config } from "~/services/config.server";

/**
 * Public pages and feeds: a browser revalidates on every view (so whoever
 * just saved sees the change), a shared cache (a CDN) may keep a copy for
 * two seconds. Never stale-while-revalidate: it shows the old page once more.
 * stale-if-error lets a CDN keep answering while the site cannot (as the
 * page cache does while the database is away); a cache that lets
 * must-revalidate win over it answers the error instead, as before.
 */
export const SHARED_CACHE = "public, max-age=0, must-revalidate, s-maxage=2, stale-if-error=86400";
/**
 * Without PUBLIC_URL pages print the host the request named, so a shared
 * cache must never keep one for others: a copy made for a forged Host or
 * X-Forwarded-Host would be served to every visitor. The browser still
 * keeps its own copy and revalidates it.
 */
export const BROWSER_ONLY_CACHE = "private, max-age=0, must-revalidate";

/** Cache-Control of public pages and feeds, by whether pages print the request's host. */
export function publicCacheControl(hostInPages: boolean): string {
  return hostInPages ? BROWSER_ONLY_CACHE : SHARED_CACHE;
}

/** Cache-Control of public pages and feeds on this site. */
export function publicCache(): string {
  return publicCacheControl(config().publicUrl === null);
}
export const PRIVATE_CACHE = "private, no-store";

/**
 * `headers` of the sign-in pages: never stored, and a refusal by the
 * sign-in limits keeps its Retry-After.
 */
export const signInHeaders: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers({ "Cache-Control": "no-store" });
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

/**
 * Chooses Cache-Control for a document: the pastor area is never stored,
 * public pages are revalidated on every view; a route may set its own.
 */
export function cacheControlFor(request: Request, status: number, headers: Headers): string {
  if (isPastorPath(new URL(request.url).pathname)) return PRIVATE_CACHE;
  if (headers.has("Cache-Control")) return headers.get("Cache-Control")!;
  if (status >= 500 || headers.has("Set-Cookie") || request.method !== "GET") return "no-store";
  return publicCache();
}

/**
 * A validator computed from what the page is made of (loader data, the build,
 * the address, the content version and the year in the footer), so a
 * conditional request can be answered 304 before anything is rendered.
 */
export function documentEtag(
  request: Request,
  status: number,
  context: EntryContext,
  contentVersion: string,
  extra: string,
): string {
  const url = new URL(request.url);
  const hash = crypto
    .createHash("sha1")
    .update(context.manifest.version)
    .update("\0")
    .update(url.pathname + url.search)
    .update("\0")
    .update(String(status))
    .update("\0")
    .update(String(contentVersion))
    .update("\0")
    .update(extra)
    .update("\0")
    .update(JSON.stringify(context.staticHandlerContext.loaderData))
    .digest("base64url")
    .slice(0, 27);
  return `W/"${hash}"`;
}

/** True when If-None-Match names this ETag (weak comparison, as for GET). */
export function isNotModified(request: Request, etag: string): boolean {
  return etagMatches(request.headers.get("If-None-Match"), etag);
}

/** True when an If-None-Match header names this ETag. */
export function etagMatches(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  const strip = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => t.trim() === "*" || strip(t) === strip(etag));
}
