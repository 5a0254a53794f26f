import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import zlib from "node:zlib";
import { church } from "~/content/church";
import { parseHost } from "~/http/host.server";
import { acceptPolicyCookie } from "~/http/cookie-notice.server";
import { etagMatches, publicCacheControl } from "~/http/cache.server";
import { withScriptHashes } from "~/http/security-headers.server";
import { SESSION_COOKIE_NAMES } from "~/services/session-secret.server";
import { CALENDAR_PATH, FILES_PATH, NEWS_PATH, isPastorPath } from "~/lib/paths";
import { yearIn } from "~/lib/text";
import { config } from "~/services/config.server";
import { contentKey } from "~/services/content-version.server";
import { isDatabaseUnavailable } from "~/services/db.server";
import { logger } from "~/services/logger.server";

/**
 * Public pages rendered once per content version, then served from memory.
 *
 * Sits in the front door, before Express and Remix. An anonymous GET or HEAD
 * of a public address is looked up by address; a miss goes through Remix as
 * usual, its answer is kept when it is a 200 that the app marked public and
 * that sets no cookie, and it is served until contentChanged() moves the
 * content version on (every instance sees that within a second) or a scheduled
 * article or album becomes public. Anything
 * else goes straight through: a session cookie, an Authorization header, a
 * query the cache does not know, a Remix data request, the pastor area.
 *
 * What a client sends can only choose between pages, never go into one that
 * others get: the key holds the host (while PUBLIC_URL is unset, pages print
 * it) only when it is a plain host name, the cookie notice's cookie as a
 * yes/no, the known query as a number.
 *
 * While the content version cannot be read (the database is away), a kept
 * page is still served, for STALE_IF_ERROR_MS after the last successful
 * check: content changes only through the database, so nothing newer exists.
 * A page not kept goes to Remix, which answers its Polish 503.
 *
 * A kept page carries no nonce: a nonce that every visitor can read
 * protects nothing. Its policy names its inline scripts by their SHA-256
 * instead (withScriptHashes), the same for every visitor.
 */

interface Entry {
  version: string;
  key: string;
  headers: OutgoingHttpHeaders;
  etag: string | undefined;
  body: Buffer;
  gzip: Buffer;
  bytes: number;
}

type Next = () => void;

// What Remix and Express would print or answer differently by; never kept.
const PER_RESPONSE = new Set([
  "connection",
  "content-encoding",
  "content-length",
  "date",
  "keep-alive",
  "set-cookie",
  "transfer-encoding",
  "x-request-id",
]);
// Query parameters a page reads, by path: the news list's page number.
const KNOWN_QUERY: Record<string, { name: string; value: RegExp }> = {
  [NEWS_PATH]: { name: "strona", value: /^\d{1,6}$/ },
  // The calendar's month view.
  [CALENDAR_PATH]: { name: "miesiac", value: /^\d{4}-\d{2}$/ },
};
// Files served before Remix, and Remix data requests (`.data` with single
// fetch; `?_data` without it is an unknown query).
const NOT_PAGES = /\.(?:data|ico|png|jpe?g|gif|webp|avif|svg|css|js|mjs|map|json|webmanifest|woff2?|pdf)$/i;

/** How long kept pages outlive a database that stopped answering (also the header's stale-if-error). */
export const STALE_IF_ERROR_MS = 24 * 60 * 60 * 1000;

export interface PageCacheOptions {
  /** Memory for kept pages; 0 turns the cache off. */
  maxBytes: number;
  /** Whether pages print the request's host (true while PUBLIC_URL is unset). */
  hostInPages: boolean;
}

export function createPageCache({ maxBytes, hostInPages }: PageCacheOptions) {
  // A Map keeps insertion order: the first entry is the least recently used.
  const entries = new Map<string, Entry>();
  let bytes = 0;
  // The content key (see contentKey()): the version, and the next moment a
  // scheduled item goes public, after which every kept page is stale.
  let version: string | null = null;
  // When `version` was last read from the database.
  let confirmedAt = 0;
  // Pages being rendered, so that requests for the same page wait for it.
  const rendering = new Map<string, Promise<void>>();

  function drop(entry: Entry) {
    entries.delete(entry.key);
    bytes -= entry.bytes;
  }

  function keep(entry: Entry) {
    if (entry.bytes > maxBytes || entry.version !== version) return;
    const old = entries.get(entry.key);
    if (old) drop(old);
    entries.set(entry.key, entry);
    bytes += entry.bytes;
    for (const oldest of entries.values()) {
      if (bytes <= maxBytes) break;
      drop(oldest);
    }
  }

  /** The cache key, or null when this request must go straight to Remix. */
  async function keyOf(req: IncomingMessage): Promise<string | null> {
    if (req.method !== "GET" && req.method !== "HEAD") return null;
    if (req.headers.authorization !== undefined || req.headers.range !== undefined) return null;
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    if (!path.startsWith("/") || isPastorPath(path) || path.startsWith("/build/")) return null;
    if (path === FILES_PATH || path.startsWith(`${FILES_PATH}/`)) return null;
    if (NOT_PAGES.test(path)) return null;
    let query = "";
    if (q !== -1) {
      const params = new URLSearchParams(url.slice(q + 1));
      const known = KNOWN_QUERY[path];
      const pairs = [...params];
      if (!known || pairs.length !== 1 || pairs[0][0] !== known.name || !known.value.test(pairs[0][1])) return null;
      query = `?${known.name}=${pairs[0][1]}`;
    }
    let host = "";
    if (hostInPages) {
      const h = parseHost(req.headers.host);
      if (!h || req.headers["x-forwarded-host"] !== undefined) return null;
      host = h.port === null ? h.name : `${h.name}:${h.port}`;
    }
    const cookie = req.headers.cookie;
    let accepted = false;
    if (cookie) {
      if (hasSessionCookie(cookie)) return null;
      accepted = (await acceptPolicyCookie.parse(cookie)) === "true";
    }
    // The footer prints the year.
    return `${host}\n${path}${query}\n${accepted ? 1 : 0}\n${yearIn(church.timeZone)}`;
  }

  function serve(entry: Entry, req: IncomingMessage, res: ServerResponse, method: string) {
    for (const [name, value] of Object.entries(entry.headers)) {
      if (value !== undefined) res.setHeader(name, value);
    }
    res.setHeader("Vary", "Accept-Encoding");
    const ifNoneMatch = req.headers["if-none-match"];
    if (entry.etag && etagMatches(Array.isArray(ifNoneMatch) ? ifNoneMatch.join(",") : ifNoneMatch, entry.etag)) {
      res.writeHead(304);
      res.end();
      return;
    }
    const body = acceptsGzip(req.headers["accept-encoding"]) ? entry.gzip : entry.body;
    if (body === entry.gzip) res.setHeader("Content-Encoding", "gzip");
    res.setHeader("Content-Length", body.length);
    res.writeHead(200);
    res.end(method === "HEAD" ? undefined : body);
  }

  /** Renders through `next` into memory, then keeps the page when it may be shared. */
  function renderAndKeep(req: IncomingMessage, res: ServerResponse, next: Next, key: string, forVersion: string) {
    const method = req.method!;
    const conditional = {
      "if-none-match": req.headers["if-none-match"],
      "if-modified-since": req.headers["if-modified-since"],
    };
    const acceptEncoding = req.headers["accept-encoding"];
    // The whole page, uncompressed: the cache compresses it once and answers
    // conditional requests itself. A HEAD renders as a GET to fill the cache.
    delete req.headers["if-none-match"];
    delete req.headers["if-modified-since"];
    delete req.headers["accept-encoding"];
    req.method = "GET";

    const chunks: Buffer[] = [];
    const own = { writeHead: res.writeHead, write: res.write, end: res.end };
    res.writeHead = function (status: number, ...rest: unknown[]) {
      res.statusCode = status;
      const headers = rest.find((r) => typeof r === "object" && r !== null);
      if (headers && !Array.isArray(headers)) {
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value as string);
      }
      return res;
    } as ServerResponse["writeHead"];
    res.write = function (chunk: unknown, encoding?: unknown, callback?: unknown) {
      collect(chunk, encoding);
      const cb = [encoding, callback].find((a) => typeof a === "function") as (() => void) | undefined;
      cb?.();
      return true;
    } as ServerResponse["write"];
    res.end = function (chunk?: unknown, encoding?: unknown, callback?: unknown) {
      collect(chunk, encoding);
      Object.assign(res, own);
      req.method = method;
      Object.assign(req.headers, conditional);
      if (acceptEncoding !== undefined) req.headers["accept-encoding"] = acceptEncoding;
      else delete req.headers["accept-encoding"];
      finish();
      const cb = [chunk, encoding, callback].find((a) => typeof a === "function") as (() => void) | undefined;
      if (cb) res.once("finish", cb);
      return res;
    } as ServerResponse["end"];

    function collect(chunk: unknown, encoding: unknown) {
      if (chunk === undefined || chunk === null || typeof chunk === "function") return;
      if (typeof chunk === "string") chunks.push(Buffer.from(chunk, (encoding as BufferEncoding) || "utf8"));
      else chunks.push(Buffer.from(chunk as Uint8Array));
    }

    function finish() {
      let body: Buffer = Buffer.concat(chunks);
      const all = res.getHeaders();
      const shareable =
        res.statusCode === 200 &&
        all["cache-control"] === publicCacheControl(hostInPages) &&
        all["set-cookie"] === undefined &&
        all["content-encoding"] === undefined;
      if (!shareable) {
        // Sent as rendered (uncompressed: this answer is not a page kept for others).
        res.end(method === "HEAD" ? undefined : body);
        return;
      }
      const policy = all["content-security-policy"];
      if (typeof policy === "string") {
        const hashed = withScriptHashes(body, policy);
        body = hashed.html;
        all["content-security-policy"] = hashed.policy;
      }
      for (const name of res.getHeaderNames()) res.removeHeader(name);
      const headers: OutgoingHttpHeaders = {};
      let headerBytes = 0;
      for (const [name, value] of Object.entries(all)) {
        if (PER_RESPONSE.has(name) || value === undefined) continue;
        headers[name] = value;
        headerBytes += name.length + String(value).length;
      }
      const gzip = zlib.gzipSync(body);
      const entry: Entry = {
        version: forVersion,
        key,
        headers,
        etag: typeof all.etag === "string" ? all.etag : undefined,
        body,
        gzip,
        bytes: body.length + gzip.length + headerBytes + key.length,
      };
      keep(entry);
      // The request id stays this response's own.
      if (all["x-request-id"] !== undefined) res.setHeader("X-Request-Id", all["x-request-id"]);
      serve(entry, req, res, method);
    }

    next();
  }

  async function handle(req: IncomingMessage, res: ServerResponse, next: Next) {
    if (maxBytes <= 0) return next();
    let key: string | null = null;
    let current: string;
    try {
      key = await keyOf(req);
      if (key === null) return next();
      current = await contentKey();
    } catch (error) {
      // An unreachable database: the page as it was, else Remix's page for that.
      if (
        key !== null &&
        isDatabaseUnavailable(error) &&
        version !== null &&
        Date.now() - confirmedAt < STALE_IF_ERROR_MS
      ) {
        if (serveKept(key, version, req, res)) {
          logger.debug({ path: (req.url ?? "/").split("?")[0], version }, "page cache stale hit");
          return;
        }
      }
      return next();
    }
    confirmedAt = Date.now();
    if (current !== version) {
      // Every kept page is older than this version.
      entries.clear();
      bytes = 0;
      version = current;
    }
    const path = (req.url ?? "/").split("?")[0];
    if (serveKept(key, current, req, res)) {
      logger.debug({ path, version: current }, "page cache hit");
      return;
    }
    const inFlight = rendering.get(key);
    if (inFlight) {
      // Requests arriving together after a save wait for one render of the page.
      await inFlight;
      if (serveKept(key, current, req, res)) {
        logger.debug({ path, version: current }, "page cache hit");
        return;
      }
      // That answer was not kept: this one goes through on its own, uncached.
      return next();
    }
    logger.debug({ path, version: current }, "page cache miss");
    let done!: () => void;
    rendering.set(key, new Promise<void>((resolve) => (done = resolve)));
    res.once("close", () => {
      rendering.delete(key);
      done();
    });
    renderAndKeep(req, res, next, key, current);
  }

  function serveKept(key: string, current: string, req: IncomingMessage, res: ServerResponse): boolean {
    const entry = entries.get(key);
    if (!entry || entry.version !== current) return false;
    entries.delete(key);
    entries.set(key, entry);
    serve(entry, req, res, req.method!);
    return true;
  }

  return {
    handle,
    /** Bytes and pages held (tests, diagnostics). */
    size: () => ({ bytes, pages: entries.size }),
  };
}

function hasSessionCookie(header: string): boolean {
  return header.split(";").some((pair) => {
    const name = pair.split("=", 1)[0].trim();
    return (SESSION_COOKIE_NAMES as readonly string[]).includes(name);
  });
}

function acceptsGzip(header: string | string[] | undefined): boolean {
  if (typeof header !== "string") return false;
  return header.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (coding.trim() !== "gzip" && coding.trim() !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return !q || Number(q.slice(2)) > 0;
  });
}

let shared: ReturnType<typeof createPageCache> | undefined;

/** The process's page cache, sized by PAGE_CACHE_MB. */
export function pageCache() {
  shared ??= createPageCache({ maxBytes: config().pageCacheBytes, hostInPages: config().publicUrl === null });
  return shared;
}
