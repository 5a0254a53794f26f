// What the file commands (backup, restore, import:firebase) share: one file
// argument, named from the caller's folder, and Polish lines on stdout and
// stderr. scripts/zbor.ts runs them (and build/cli.js, its bundle).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ConfigError } from "~/services/config.server";

export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Line writers, and the one file the arguments name (null when they name none or more). */
export function fileCommand(args: string[], io: Io) {
  const out = (line: string) => io.stdout.write(`${line}\n`);
  const fail = (line: string) => (io.stderr.write(`${line}\n`), 1);
  // npm runs scripts from the project folder; a relative name means the caller's folder.
  const file =
    args.length === 1 && !args[0].startsWith("-") ? path.resolve(process.env.INIT_CWD ?? process.cwd(), args[0]) : null;
  return { out, fail, file };
}

/**
 * Runs `main` when the TypeScript module at `moduleUrl` is the script node
 * started (`node --import tsx scripts/x.ts`), then exits with its code. Never
 * inside build/cli.js, where every bundled module shares the bundle's
 * address: there scripts/zbor.ts chooses the command.
 */
export function runIfMain(
  moduleUrl: string,
  main: (args: string[], io: Io) => Promise<number>,
  beforeExit: () => Promise<void> = async () => {},
) {
  if (!moduleUrl.endsWith(".ts") || !process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  runAndExit(main, beforeExit);
}

/** Runs `main` with this process's arguments and streams, then exits with its code (1 on a throw). */
export function runAndExit(
  main: (args: string[], io: typeof process) => Promise<number>,
  beforeExit: () => Promise<void> = async () => {},
) {
  main(process.argv.slice(2), process)
    .catch((error) => {
      console.error(error instanceof ConfigError ? error.message : error);
      return 1;
    })
    .then(async (code) => {
      await beforeExit();
      process.exit(code);
    });
}
