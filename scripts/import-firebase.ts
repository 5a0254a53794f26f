// `zbor import:firebase <export.json>`: imports the old Firebase site
// (a Firestore JSON export of aktualnosci, galleries and history-gallery)
// into the configured database and storage, downloading every image. Safe to
// run again: what is already there is left alone, and images that could not
// be downloaded last time are tried again. See firebase-import/.
import { portAnswers } from "./backup/connections";
import { config } from "~/services/config.server";
import { type Io, fileCommand } from "./cli";
import { ImportFileError, readFirebaseExport } from "./firebase-import/export-file";
import { importFirebase, summaryLines } from "./firebase-import/import";
import { storage } from "~/services/storage.server";

const USAGE = "Użycie: zbor import:firebase [--local-source=ADRES] <eksport.json>";
const LOCAL_SOURCE = "--local-source=";

export async function main(args: string[], io: Io): Promise<number> {
  // A local copy of the old files (a trial): the only host besides the old
  // site's that images may come from, on any address.
  const localOrigins = args
    .filter((a) => a.startsWith(LOCAL_SOURCE))
    .map((a) => new URL(a.slice(LOCAL_SOURCE.length)).origin);
  const { out, fail, file } = fileCommand(
    args.filter((a) => !a.startsWith(LOCAL_SOURCE)),
    io,
  );
  if (!file) return fail(USAGE);

  // The file is checked whole before the database is even opened.
  let data;
  try {
    data = await readFirebaseExport(file);
  } catch (error) {
    if (error instanceof ImportFileError) return fail(error.message);
    throw error;
  }

  // Imported content must not be mixed with demo articles in a fresh embedded database.
  process.env.SEED_DEMO ??= "0";
  const cfg = config();
  if (cfg.database.kind === "pglite" && cfg.database.dir && (await portAnswers(cfg.port))) {
    return fail(`Serwer działa na porcie ${cfg.port} i używa wbudowanej bazy danych; zatrzymaj go przed importem.`);
  }

  const store = storage();
  try {
    out(`Import z pliku ${file}:`);
    const summary = await importFirebase(data, { store, localOrigins, log: (line) => out(`  ${line}`) });
    out("Podsumowanie:");
    for (const line of summaryLines(summary)) out(line);
    return 0;
  } finally {
    await (store as { close?: () => Promise<void> }).close?.();
  }
}
