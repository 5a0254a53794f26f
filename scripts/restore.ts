// `npm run restore -- <file>`: restores an archive made by `npm run backup`
// into the configured database and storage, which must both be empty.
// Migrations run here (up to the archive's level, then the rest); the archive
// is checked whole before anything is written. See app/backup.server.ts.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { BackupError, FILES, ROWS, TABLES, openDatabase, plural, portAnswers, restoreBackup } from "~/backup.server";
import { config } from "~/config.server";
import { storage } from "~/storage.server";

export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const USAGE = "Użycie: npm run restore -- <plik.tar.gz>";

export async function main(args: string[], io: Io): Promise<number> {
  const out = (line: string) => io.stdout.write(`${line}\n`);
  const fail = (line: string) => (io.stderr.write(`${line}\n`), 1);
  if (args.length !== 1 || args[0].startsWith("-")) return fail(USAGE);
  // npm runs scripts from the project folder; a relative name means the caller's folder.
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), args[0]);

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

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2), process)
    .catch((error) => {
      console.error(error instanceof Error && error.message.startsWith("Invalid configuration") ? error.message : error);
      return 1;
    })
    .then((code) => process.exit(code));
}
