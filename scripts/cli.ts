// What the file commands (backup, restore, import:firebase) share: one file
// argument, named from the caller's folder, and Polish lines on stdout and
// stderr. scripts/zbor.ts runs them.
import path from "node:path";

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
