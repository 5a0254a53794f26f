import type { IncomingMessage, ServerResponse } from "node:http";
import { config } from "~/services/config.server";
import { contentKey } from "~/services/content-version.server";
import { isDatabaseUnavailable } from "~/services/db.server";
import { logger } from "~/services/logger.server";
import { renderIntoMemory } from "~/http/page-cache/capture.server";
import { createFreshness } from "~/http/page-cache/freshness.server";
import { pageKey } from "~/http/page-cache/key.server";
import { isShareable, keptPage, sendKeptPage } from "~/http/page-cache/kept-page.server";
import { createPageStore } from "~/http/page-cache/store.server";
import { createVisitorHosts } from "~/http/page-cache/visitor-hosts.server";

export { STALE_IF_ERROR_MS } from "~/http/page-cache/freshness.server";

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
 * others get (page-cache/key.server.ts).
 *
 * While the content version cannot be read (the database is away), a kept
 * page is still served, for STALE_IF_ERROR_MS after the last successful
 * check: content changes only through the database, so nothing newer exists.
 * A page not kept goes to Remix, which answers its Polish 503.
 *
 * A kept page carries no nonce; its policy names its inline scripts by their
 * SHA-256 instead (page-cache/kept-page.server.ts).
 */

type Next = () => void;

export interface PageCacheOptions {
  /** Memory for kept pages; 0 turns the cache off. */
  maxBytes: number;
  /** Whether pages print the request's host (true while PUBLIC_URL is unset). */
  hostInPages: boolean;
}

const pathOf = (req: IncomingMessage) => (req.url ?? "/").split("?")[0];

/** The User-Agent of the instance's own page warmer (boot/page-warmer), whose requests are no visitor's. */
export const WARMER_AGENT = "zbor-page-warmer";

export function createPageCache({ maxBytes, hostInPages }: PageCacheOptions) {
  const store = createPageStore(maxBytes);
  const freshness = createFreshness();
  // Pages being rendered, so that requests for the same page wait for it.
  const rendering = new Map<string, Promise<void>>();
  const visitorHosts = createVisitorHosts();

  /** Counts the host a visitor was given a kept page for (the key's first line; "" when pages print none). */
  function countHost(key: string, req: IncomingMessage) {
    if (hostInPages && req.headers["user-agent"] !== WARMER_AGENT) visitorHosts.seen(key.slice(0, key.indexOf("\n")));
  }

  /** Answers with the page kept under `key` for `version`; false when there is none. */
  function serveKept(key: string, version: string, req: IncomingMessage, res: ServerResponse): boolean {
    const page = store.get(key, version);
    if (!page) return false;
    countHost(key, req);
    sendKeptPage(page, req, res, req.method!);
    return true;
  }

  /** The database is unreachable: the page as it was, if it is kept and not too old. */
  function serveStale(key: string, req: IncomingMessage, res: ServerResponse): boolean {
    const version = freshness.staleVersion();
    if (version === null || !serveKept(key, version, req, res)) return false;
    logger.debug({ path: pathOf(req), version }, "page cache stale hit");
    return true;
  }

  /** Renders through `next` into memory, then keeps the page when it may be shared. */
  function renderAndKeep(req: IncomingMessage, res: ServerResponse, next: Next, key: string, version: string) {
    renderIntoMemory(req, res, next, (body, method) => {
      const all = res.getHeaders();
      if (!isShareable(res.statusCode, all, hostInPages)) {
        // Sent as rendered (uncompressed: this answer is not a page kept for others).
        res.end(method === "HEAD" ? undefined : body);
        return;
      }
      for (const name of res.getHeaderNames()) res.removeHeader(name);
      const page = keptPage(body, all, key, version);
      store.keep(page, freshness.current());
      countHost(key, req);
      // The request id stays this response's own.
      if (all["x-request-id"] !== undefined) res.setHeader("X-Request-Id", all["x-request-id"]);
      sendKeptPage(page, req, res, method);
    });
  }

  /** A miss: the first request renders the page; requests for it meanwhile wait for that render. */
  async function renderOnce(req: IncomingMessage, res: ServerResponse, next: Next, key: string, version: string) {
    const inFlight = rendering.get(key);
    if (inFlight) {
      // Requests arriving together after a save wait for one render of the page.
      await inFlight;
      if (serveKept(key, version, req, res)) {
        logger.debug({ path: pathOf(req), version }, "page cache hit");
        return;
      }
      // That answer was not kept: this one goes through on its own, uncached.
      return next();
    }
    logger.debug({ path: pathOf(req), version }, "page cache miss");
    let done!: () => void;
    rendering.set(key, new Promise<void>((resolve) => (done = resolve)));
    res.once("close", () => {
      rendering.delete(key);
      done();
    });
    renderAndKeep(req, res, next, key, version);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, next: Next) {
    if (maxBytes <= 0) return next();
    let key: string | null = null;
    let current: string;
    try {
      key = await pageKey(req, { hostInPages });
      if (key === null) return next();
      current = await contentKey();
    } catch (error) {
      // An unreachable database: the page as it was, else Remix's page for that.
      if (key !== null && isDatabaseUnavailable(error) && serveStale(key, req, res)) return;
      return next();
    }
    // Every kept page is older than a new version.
    if (freshness.confirm(current)) store.clear();
    if (serveKept(key, current, req, res)) {
      logger.debug({ path: pathOf(req), version: current }, "page cache hit");
      return;
    }
    await renderOnce(req, res, next, key, current);
  }

  return {
    handle,
    /** Bytes and pages held (tests, diagnostics). */
    size: store.size,
    /** While pages print the host: the `n` hosts visitors were given pages for most, most first. */
    visitorHosts: (n: number) => visitorHosts.top(n),
  };
}

let shared: ReturnType<typeof createPageCache> | undefined;

/** The process's page cache, sized by PAGE_CACHE_MB. */
export function pageCache() {
  shared ??= createPageCache({ maxBytes: config().pageCacheBytes, hostInPages: config().publicUrl === null });
  return shared;
}
