// `npm run import:firebase -- <export.json>`: imports the old Firebase site
// (a Firestore JSON export of aktualnosci, galleries and history-gallery)
// into the configured database and storage, downloading every image. Safe to
// run again: what is already there is left alone, and images that could not
// be downloaded last time are tried again. See app/firebase-import.server.ts.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { portAnswers } from "~/backup.server";
import { config } from "~/config.server";
import { closeDb } from "~/db.server";
import { ImportFileError, importFirebase, readFirebaseExport, summaryLines } from "~/firebase-import.server";
import { storage } from "~/storage.server";

export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const USAGE = "Użycie: npm run import:firebase -- <eksport.json>";

export async function main(args: string[], io: Io): Promise<number> {
  const out = (line: string) => io.stdout.write(`${line}\n`);
  const fail = (line: string) => (io.stderr.write(`${line}\n`), 1);
  if (args.length !== 1 || args[0].startsWith("-")) return fail(USAGE);
  // npm runs scripts from the project folder; a relative name means the caller's folder.
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), args[0]);

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
    const summary = await importFirebase(data, { store, log: (line) => out(`  ${line}`) });
    out("Podsumowanie:");
    for (const line of summaryLines(summary)) out(line);
    return 0;
  } finally {
    await (store as { close?: () => Promise<void> }).close?.();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2), process)
    .catch((error) => {
      console.error(error instanceof Error && error.message.startsWith("Invalid configuration") ? error.message : error);
      return 1;
    })
    .then(async (code) => {
      await closeDb();
      process.exit(code);
    });
}
