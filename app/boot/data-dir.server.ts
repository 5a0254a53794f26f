// DATA_DIR holds the embedded database (password hashes included), the
// session secret and uploads: only the account the server runs as may read
// or change any of it.
import fs from "node:fs/promises";
import path from "node:path";
import { logger } from "~/services/logger.server";

/**
 * Everything created from now on is owner-only (PGlite creates its files
 * 0666 otherwise), and what an older version left group- or world-accessible
 * is made owner-only too.
 */
export async function keepDataDirPrivate(dataDir: string): Promise<void> {
  process.umask(0o077);
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  let changed = 0;
  async function tighten(file: string) {
    const stat = await fs.lstat(file);
    if (stat.isSymbolicLink()) return;
    if (stat.mode & 0o077) {
      try {
        await fs.chmod(file, stat.mode & 0o700);
        changed++;
      } catch (error) {
        // e.g. a mounted volume's root owned by someone else: say so, go on.
        logger.warn({ err: error, file }, "could not make a file of DATA_DIR owner-only");
      }
    }
    if (stat.isDirectory()) {
      for (const name of await fs.readdir(file)) await tighten(path.join(file, name));
    }
  }
  await tighten(dataDir);
  if (changed) logger.info({ files: changed }, "made files of DATA_DIR owner-only");
}
