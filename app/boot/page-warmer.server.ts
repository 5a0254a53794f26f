import http from "node:http";
import { listArticleCards } from "~/features/articles/articles.server";
import { listGalleryCards } from "~/features/galleries/galleries.server";
import {
  ABOUT_PATH,
  CALENDAR_PATH,
  CONTACT_PATH,
  GALLERIES_PATH,
  HOME_PATH,
  MINISTRIES_PATH,
  NEWS_PATH,
  RSS_PATH,
  SITEMAP_PATH,
  articlePath,
  galleryPath,
  newsPagePath,
} from "~/lib/paths";
import { WARMER_AGENT, pageCache } from "~/http/page-cache.server";
import { config } from "~/services/config.server";
import { contentKey } from "~/services/content-version.server";
import { logger } from "~/services/logger.server";

/**
 * Puts the main public pages into this instance's page cache after start and
 * after every content change, so that they are there when the database goes
 * away (the cache serves kept pages through an outage). The pages are asked
 * of the instance's own port, as a visitor would, so they go through the
 * page cache and are kept exactly as a visitor's view would be.
 *
 * With PUBLIC_URL set, pages do not print the host and one copy serves any
 * name. Without it pages are kept per host, so the pages are rendered for
 * the names visitors ask for most (at most MAX_HOSTS, counted by the page
 * cache), or for the instance's own address until a visitor has come; a
 * name that comes up later is warmed once it does, and never more than
 * MAX_HOSTS names per content version, so made-up hosts cannot keep the
 * warmer busy.
 *
 * Visitors never wait for it: one page at a time, and after each a pause as
 * long as it took (at most half of a core), a round given up after
 * ROUND_MS. Each instance learns of a change by the same once-a-second
 * check of the content version as its page cache.
 */

const CHECK_MS = 1_000;
const ROUND_MS = 60_000;
const PAGE_TIMEOUT_MS = 10_000;
const NEWEST = 5;
const MAX_HOSTS = 3;

let stopped = true;
let timer: NodeJS.Timeout | undefined;

/** The addresses a round renders: fixed pages first, then the newest articles and albums. */
async function addresses(): Promise<string[]> {
  const fixed = [
    HOME_PATH,
    NEWS_PATH,
    newsPagePath(2),
    newsPagePath(3),
    GALLERIES_PATH,
    CONTACT_PATH,
    ABOUT_PATH,
    MINISTRIES_PATH,
    CALENDAR_PATH,
    RSS_PATH,
    SITEMAP_PATH,
  ];
  const [articles, albums] = await Promise.all([listArticleCards({ limit: NEWEST }), listGalleryCards()]);
  return [
    ...fixed,
    ...articles.map((a) => articlePath(a.id)),
    ...albums.slice(0, NEWEST).map((g) => galleryPath(g.title)),
  ];
}

/** Asks this instance for one page as a visitor of `host` would (fetch would not send that Host header). */
function render(port: number, host: string, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: "127.0.0.1", port, path: address, headers: { Host: host, "User-Agent": WARMER_AGENT } },
      (res) => {
        res.resume();
        res.on("end", resolve);
        res.on("error", reject);
      },
    );
    req.setTimeout(PAGE_TIMEOUT_MS, () =>
      req.destroy(new Error(`no answer for ${address} within ${PAGE_TIMEOUT_MS} ms`)),
    );
    req.on("error", reject);
  });
}

/** Renders each address once for each host; false when the content changed meanwhile or the server did not answer. */
async function round(port: number, hosts: string[], key: string): Promise<boolean> {
  const deadline = Date.now() + ROUND_MS;
  const all = await addresses();
  for (const host of hosts) {
    for (const address of all) {
      if (stopped || Date.now() > deadline || (await contentKey()) !== key) return false;
      const started = Date.now();
      await render(port, host, address);
      await new Promise((r) => setTimeout(r, Math.max(10, Date.now() - started)));
    }
  }
  return true;
}

/** Starts checking for changes once a second; `port` is this instance's own. */
export function startPageWarmer(port = config().port) {
  if (!config().warmPages || !stopped) return;
  stopped = false;
  const publicUrl = config().publicUrl;
  // With PUBLIC_URL set pages do not print the host, and any host shares one copy.
  const hosts = (): string[] => {
    if (publicUrl) return [new URL(publicUrl).host];
    const asked = pageCache().visitorHosts(MAX_HOSTS);
    return asked.length > 0 ? asked : [`127.0.0.1:${port}`];
  };
  // The content key the hosts below were warmed for.
  let version: string | null = null;
  const warmed = new Set<string>();
  const tick = async () => {
    try {
      const key = await contentKey();
      if (key !== version) {
        version = key;
        warmed.clear();
      }
      const due = hosts()
        .filter((host) => !warmed.has(host))
        .slice(0, MAX_HOSTS - warmed.size);
      if (due.length > 0 && (await round(port, due, key))) {
        for (const host of due) warmed.add(host);
        logger.debug({ version: key, hosts: due }, "page cache warmed");
      }
    } catch (error) {
      // The database away or the port not open yet: tried again next time.
      logger.debug({ err: error }, "page cache warming postponed");
    }
    if (!stopped) timer = setTimeout(() => void tick(), CHECK_MS).unref();
  };
  timer = setTimeout(() => void tick(), CHECK_MS).unref();
}

export function stopPageWarmer() {
  stopped = true;
  clearTimeout(timer);
}
