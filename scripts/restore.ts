// `npm run restore -- <file>`: restores an archive made by `npm run backup`
// into the configured database and storage, which must both be empty.
// Migrations run here (up to the archive's level, then the rest); the archive
// is checked whole before anything is written. See backup/.
import { openDatabase, portAnswers } from "./backup/connections";
import { BackupError, FILES, ROWS, TABLES, plural } from "./backup/format";
import { restoreBackup } from "./backup/restore";
import { config } from "~/services/config.server";
import { type Io, fileCommand, runIfMain } from "./cli";
import { storage } from "~/services/storage.server";

const USAGE = "Użycie: npm run restore -- <plik.tar.gz>";

export async function main(args: string[], io: Io): Promise<number> {
  const { out, fail, file } = fileCommand(args, io);
  if (!file) return fail(USAGE);

  const cfg = config();
  if (cfg.database.kind === "pglite") {
    if (!cfg.database.dir) return fail("DATABASE_URL=memory: to baza tymczasowa; przywrócona treść by przepadła.");
    if (await portAnswers(cfg.port)) {
      return fail(
        `Serwer działa na porcie ${cfg.port} i używa wbudowanej bazy danych; zatrzymaj go przed przywracaniem ` +
          `(the server is running on port ${cfg.port} with the embedded database: stop it first).`,
      );
    }
  }

  const store = storage();
  const conn = await openDatabase(cfg.database);
  try {
    const manifest = await restoreBackup({ db: conn.db, storage: store, file, log: out });
    const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
    out(
      `Przywrócono kopię z ${manifest.createdAt}: ${plural(manifest.tables.length, TABLES)}, ` +
        `${plural(rows, ROWS)}, ${plural(manifest.files.length, FILES)}.`,
    );
    return 0;
  } catch (error) {
    if (error instanceof BackupError) return fail(error.message);
    throw error;
  } finally {
    await conn.close();
    await (store as { close?: () => Promise<void> }).close?.();
  }
}

runIfMain(import.meta.url, main);
