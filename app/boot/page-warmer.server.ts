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
 * Visitors never wait for it: one page at a time, and after each a pause as
 * long as it took (at most half of a core), a round given up after
 * ROUND_MS. Each instance learns of a change by the same once-a-second
 * check of the content version as its page cache.
 */

const CHECK_MS = 1_000;
const ROUND_MS = 60_000;
const PAGE_TIMEOUT_MS = 10_000;
const NEWEST = 5;

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

/** Renders each address once; false when the content changed meanwhile or the server did not answer. */
async function round(origin: string, host: string, key: string): Promise<boolean> {
  const deadline = Date.now() + ROUND_MS;
  for (const address of await addresses()) {
    if (stopped || Date.now() > deadline || (await contentKey()) !== key) return false;
    const started = Date.now();
    const res = await fetch(origin + address, {
      headers: { Host: host, "User-Agent": "zbor-page-warmer" },
      signal: AbortSignal.timeout(PAGE_TIMEOUT_MS),
    });
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, Math.max(10, Date.now() - started)));
  }
  return true;
}

/** Starts checking for changes once a second; `port` is this instance's own. */
export function startPageWarmer(port = config().port) {
  if (!config().warmPages || !stopped) return;
  stopped = false;
  const publicUrl = config().publicUrl;
  const origin = `http://127.0.0.1:${port}`;
  // With PUBLIC_URL set pages do not print the host, and any host shares one copy.
  const host = publicUrl ? new URL(publicUrl).host : `127.0.0.1:${port}`;
  let warmed: string | null = null;
  const tick = async () => {
    try {
      const key = await contentKey();
      if (key !== warmed && (await round(origin, host, key))) {
        warmed = key;
        logger.debug({ version: key }, "page cache warmed");
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
