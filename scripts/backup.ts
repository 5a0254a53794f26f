// `zbor backup <file | s3://bucket/key>`: one archive (tar.gz) with every
// table of the configured database and every stored file, plus a manifest of
// checksums.
// Uses the same configuration as the app (DATABASE_URL or the embedded
// database under DATA_DIR; disk or S3 storage). See backup/.
import fs from "node:fs";
import path from "node:path";
import { createBackup } from "./backup/backup";
import { openDatabase, portAnswers } from "./backup/connections";
import { assertAbsent, isS3Argument, parseS3Location, scratchFolder, uploadArchive } from "./backup/s3-archive";
import { BackupError, FILES, ROWS, TABLES, plural } from "./backup/format";
import { config } from "~/services/config.server";
import { type Io, fileCommand } from "./cli";
import { storage } from "~/services/storage.server";

const USAGE = "Użycie: zbor backup <plik.tar.gz | s3://kubeł/klucz.tar.gz>";

export async function main(args: string[], io: Io): Promise<number> {
  const { out, fail, file: named } = fileCommand(args, io);
  const bucket = args.length === 1 && isS3Argument(args[0]) ? parseS3Location(args[0]) : null;
  if (!named || (isS3Argument(args[0]) && !bucket)) return fail(USAGE);

  const cfg = config();
  if (cfg.database.kind === "pglite") {
    if (!cfg.database.dir) return fail("DATABASE_URL=memory: to baza tymczasowa; nie ma czego kopiować.");
    // The embedded database may be opened by one process only.
    if (await portAnswers(cfg.port)) {
      return fail(
        `Serwer działa na porcie ${cfg.port} i używa wbudowanej bazy danych; zatrzymaj go przed kopią ` +
          `(the server is running on port ${cfg.port} with the embedded database: stop it first).`,
      );
    }
    if (!fs.existsSync(path.join(cfg.database.dir, "PG_VERSION"))) {
      return fail(`Nie ma wbudowanej bazy danych w ${cfg.database.dir} (sprawdź DATA_DIR albo DATABASE_URL).`);
    }
  }

  const store = storage();
  const conn = await openDatabase(cfg.database);
  // To a bucket: the archive is made in a private temporary folder first.
  const scratch = bucket ? await scratchFolder() : null;
  const file = scratch ? path.join(scratch.dir, "kopia.tar.gz") : named;
  const target = bucket ? args[0] : file;
  try {
    if (bucket) await assertAbsent(cfg.s3, bucket);
    const { manifest, skipped } = await createBackup({ db: conn.db, storage: store, file, log: out });
    const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
    const bytes = manifest.files.reduce((sum, f) => sum + f.size, 0);
    for (const key of skipped)
      io.stderr.write(`Pominięto plik ${key} (niepoprawna nazwa albo usunięty w trakcie kopii).\n`);
    if (bucket) {
      out(`Wysyłanie kopii do ${target}…`);
      await uploadArchive(cfg.s3, file, bucket);
    }
    out(
      `Zapisano kopię ${target}: ${plural(manifest.tables.length, TABLES)}, ${plural(rows, ROWS)}, ` +
        `${plural(manifest.files.length, FILES)} (${(bytes / 1024 / 1024).toFixed(1)} MB), migracja ${manifest.migration.tag}.`,
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
