// Which kept page a request may be answered with. What a client sends can
// only choose between pages, never go into one that others get: the key
// holds the host (while PUBLIC_URL is unset, pages print it) only when it is
// a plain host name, the cookie notice's cookie as a yes/no, the known query
// as a number.
import type { IncomingMessage } from "node:http";
import { church } from "~/content/church";
import { parseHost } from "~/http/host.server";
import { acceptPolicyCookie } from "~/http/cookie-notice.server";
import { SESSION_COOKIE_NAMES } from "~/services/session-secret.server";
import { CALENDAR_PATH, FILES_PATH, NEWS_PATH, isPastorPath } from "~/lib/paths";
import { yearIn } from "~/lib/text";

// Query parameters a page reads, by path: the news list's page number.
const KNOWN_QUERY: Record<string, { name: string; value: RegExp }> = {
  [NEWS_PATH]: { name: "strona", value: /^\d{1,6}$/ },
  // The calendar's month view.
  [CALENDAR_PATH]: { name: "miesiac", value: /^\d{4}-\d{2}$/ },
};
// Files served before Remix, and Remix data requests (`.data` with single
// fetch; `?_data` without it is an unknown query).
const NOT_PAGES = /\.(?:data|ico|png|jpe?g|gif|webp|avif|svg|css|js|mjs|map|json|webmanifest|woff2?|pdf)$/i;

/** The path of a page, or null when the request is not for a public page. */
function publicPath(req: IncomingMessage, url: string, q: number): string | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  if (req.headers.authorization !== undefined || req.headers.range !== undefined) return null;
  const path = q === -1 ? url : url.slice(0, q);
  if (!path.startsWith("/") || isPastorPath(path) || path.startsWith("/build/")) return null;
  if (path === FILES_PATH || path.startsWith(`${FILES_PATH}/`)) return null;
  if (NOT_PAGES.test(path)) return null;
  return path;
}

/** The query as the key holds it ("" for none), or null for a query the page does not read. */
function knownQuery(path: string, url: string, q: number): string | null {
  if (q === -1) return "";
  const params = new URLSearchParams(url.slice(q + 1));
  const known = KNOWN_QUERY[path];
  const pairs = [...params];
  if (!known || pairs.length !== 1 || pairs[0][0] !== known.name || !known.value.test(pairs[0][1])) return null;
  return `?${known.name}=${pairs[0][1]}`;
}

/** The host as the key holds it ("" when pages do not print it), or null for an odd one. */
function hostPart(req: IncomingMessage, hostInPages: boolean): string | null {
  if (!hostInPages) return "";
  const h = parseHost(req.headers.host);
  if (!h || req.headers["x-forwarded-host"] !== undefined) return null;
  return h.port === null ? h.name : `${h.name}:${h.port}`;
}

function hasSessionCookie(header: string): boolean {
  return header.split(";").some((pair) => {
    const name = pair.split("=", 1)[0].trim();
    return (SESSION_COOKIE_NAMES as readonly string[]).includes(name);
  });
}

/** The cache key, or null when this request must go straight to Remix. */
export async function pageKey(req: IncomingMessage, { hostInPages }: { hostInPages: boolean }): Promise<string | null> {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const path = publicPath(req, url, q);
  if (path === null) return null;
  const query = knownQuery(path, url, q);
  if (query === null) return null;
  const host = hostPart(req, hostInPages);
  if (host === null) return null;
  const cookie = req.headers.cookie;
  let accepted = false;
  if (cookie) {
    if (hasSessionCookie(cookie)) return null;
    accepted = (await acceptPolicyCookie.parse(cookie)) === "true";
  }
  // The footer prints the year.
  return `${host}\n${path}${query}\n${accepted ? 1 : 0}\n${yearIn(church.timeZone)}`;
}
