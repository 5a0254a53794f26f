// `zbor restore <file | s3://bucket/key>`: restores an archive made by
// `zbor backup` into the configured database and storage, which must both be empty.
// Migrations run here (up to the archive's level, then the rest); the archive
// is checked whole before anything is written. See backup/.
import { openDatabase, portAnswers } from "./backup/connections";
import { BackupError, FILES, ROWS, TABLES, plural } from "./backup/format";
import { restoreBackup } from "./backup/restore";
import { downloadArchive, isS3Argument, parseS3Location, scratchFolder } from "./backup/s3-archive";
import path from "node:path";
import { config } from "~/services/config.server";
import { type Io, fileCommand } from "./cli";
import { storage } from "~/services/storage.server";

const USAGE = "Użycie: zbor restore <plik.tar.gz | s3://kubeł/klucz.tar.gz>";

export async function main(args: string[], io: Io): Promise<number> {
  const { out, fail, file: named } = fileCommand(args, io);
  const bucket = args.length === 1 && isS3Argument(args[0]) ? parseS3Location(args[0]) : null;
  if (!named || (isS3Argument(args[0]) && !bucket)) return fail(USAGE);

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
  // From a bucket: the archive is downloaded to a private temporary folder first.
  const scratch = bucket ? await scratchFolder() : null;
  const file = scratch ? path.join(scratch.dir, "kopia.tar.gz") : named;
  try {
    if (bucket) {
      out(`Pobieranie kopii ${args[0]}…`);
      await downloadArchive(cfg.s3, bucket, file);
    }
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
    await scratch?.remove();
  }
}
