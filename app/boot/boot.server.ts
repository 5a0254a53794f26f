// Start-up and shutdown of the server, called once by server/index.mjs:
// boot() runs to its end before the port accepts connections, so the first
// visitor (or a platform's health check) never meets a half-started server.
import { keepDataDirPrivate } from "~/boot/data-dir.server";
import { seedDemoContent } from "~/boot/seed.server";
import { WeakSessionSecret, sessionSecrets } from "~/features/auth/session.server";
import { ensureStartupAccounts } from "~/features/auth/users.server";
import { purgeExpired } from "~/features/bin/bin.server";
import { scheduleGalleryCleanup, stopGalleryCleanup } from "~/features/galleries/cleanup.server";
import { seedChurchContent } from "~/features/church/about.server";
import { seedSampleEvents } from "~/features/events/samples.server";
import { backfillVariants, startAvifBackfill } from "~/features/images/variant-backfill.server";
import { backfillShareImages } from "~/features/seo/share-images.server";
import { type Config, config } from "~/services/config.server";
import { type Connection, connection, drainAndCloseDb, isDatabaseUnavailable } from "~/services/db.server";
import { logger } from "~/services/logger.server";
import { startPageWarmer, stopPageWarmer } from "~/boot/page-warmer.server";
import { removeStaleUploads } from "~/services/upload.server";

let state: "starting" | "ready" | "stopping" = "starting";

/** True once boot() has finished and until shutdown begins: /readyz says 503 otherwise. */
export const isBooted = () => state === "ready";

/** The start cannot go on; `message` says why, in words for the operator. */
export class BootError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BootError";
  }
}

/**
 * Opens the database, trying again while it does not answer (a database
 * container starting beside the app), for `cfg.databaseWaitMs` at most.
 */
async function connectWithRetry(cfg: Config): Promise<Connection> {
  const deadline = Date.now() + cfg.databaseWaitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await connection();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      const waitMs = Math.min(500 * attempt, 3_000);
      if (Date.now() + waitMs > deadline) {
        throw new BootError(
          `The database does not answer (${describeDatabase(cfg)}); gave up after ${Math.round(cfg.databaseWaitMs / 1000)} s. ` +
            "Check DATABASE_URL and that the database server is running (DATABASE_WAIT_SECONDS sets how long to wait).",
          { cause: error },
        );
      }
      logger.warn({ attempt }, "database not answering yet; trying again");
      await new Promise((r) => setTimeout(r, waitMs));
    }
  }
}

function describeDatabase(cfg: Config): string {
  if (cfg.database.kind === "pglite") return "embedded";
  const url = new URL(cfg.database.url);
  return `${url.hostname}:${url.port || 5432}${url.pathname}`;
}

/**
 * Everything the server needs before it serves: a valid configuration, the
 * session secret, the database migrated,
 * demo content, start-up accounts and every photo's WebP widths; then
 * background work that may take its time (sharing JPEGs for older photos,
 * abandoned drafts).
 */
export async function boot(): Promise<void> {
  const cfg = config();
  await keepDataDirPrivate(cfg.dataDir);
  try {
    sessionSecrets();
  } catch (error) {
    if (error instanceof WeakSessionSecret) throw new BootError(error.message);
    throw error;
  }

  const conn = await connectWithRetry(cfg);
  // PGlite sets its files' modes itself (0666, whatever the umask): tightened
  // once it has made them. The folder's own 0700 covers files made later.
  if (cfg.database.kind === "pglite" && cfg.database.dir) await keepDataDirPrivate(cfg.dataDir);
  if (conn.fresh && cfg.seedDemo) await seedDemoContent(conn.db);
  await seedChurchContent(conn.db);
  await seedSampleEvents(conn.db);
  await ensureStartupAccounts(conn.db, cfg, { fresh: conn.fresh });

  // Before the server takes requests: pages list every WebP width in their
  // srcset, so each photo must have them all first (once; later starts skip).
  await backfillVariants();
  // AVIF files are offered once every photo has them; made in the background.
  await startAvifBackfill();

  if (cfg.isProduction && !cfg.publicUrl) {
    logger.warn("PUBLIC_URL is not set: canonical links, feeds and sharing tags use the address of each request");
  }
  // Temporary upload files left behind by a process that stopped midway.
  removeStaleUploads().catch((error) => logger.error({ err: error }, "cleaning temporary uploads failed"));
  // Photos stored before sharing JPEGs existed get theirs, in the background.
  backfillShareImages().catch((error) => logger.error({ err: error }, "making sharing images failed"));
  // What has been in the bin for 30 days, and history entries older than a year.
  purgeExpired().catch((error) => logger.error({ err: error }, "purging the bin failed"));
  // Drafts of albums abandoned for a day, and their photos: now and every hour.
  scheduleGalleryCleanup();
  // The main public pages into the page cache, once the port is open and after every change.
  startPageWarmer();
  state = "ready";
}

/** After the HTTP server has stopped taking requests: timers off, queries finished, pool closed. */
export async function shutdown(): Promise<void> {
  state = "stopping";
  stopGalleryCleanup();
  stopPageWarmer();
  await drainAndCloseDb();
}
