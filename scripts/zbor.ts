// The operator's commands in one program: `zbor <command> …`. The build
// bundles this file into build/cli.js (scripts/build-cli.mjs), which runs
// with production dependencies only (the Docker image links it as `zbor`);
// in a checkout `npm run pastor -- …` and the like run it through tsx.
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { closeDb } from "~/services/db.server";
import { runAndExit } from "./cli";
import { main as backup } from "./backup";
import { main as importFirebase } from "./import-firebase";
import { main as pastor } from "./pastor";
import { main as restore } from "./restore";
import { main as seed } from "./seed";
import { main as sweep } from "./sweep";

type Command = (args: string[], io: typeof process) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  pastor,
  backup,
  restore,
  "import:firebase": importFirebase,
  seed,
  sweep,
};

const USAGE = `Użycie: zbor <polecenie> …
  pastor add|passwd|list|remove|reset-2fa …  konta pastora (zbor pastor bez argumentów opisuje użycie)
  backup <plik | s3://kubeł/klucz>   kopia bazy danych i plików
  restore <plik | s3://kubeł/klucz>  przywraca kopię do pustej bazy i pustego magazynu
  import:firebase <eksport.json>     import ze starej strony
  seed                               dodaje przykładowe treści
  sweep [--apply] [--older-than MIN] pliki, których nic nie używa (bez --apply tylko lista)`;

export async function main(args: string[], io: typeof process): Promise<number> {
  const [name, ...rest] = args;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) return (io.stderr.write(`${USAGE}\n`), 1);
  return command(rest, io);
}

// Started as a program (also through the `zbor` symlink), not imported by a test.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  runAndExit(main, closeDb);
}
