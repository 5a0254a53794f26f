// Pastor accounts from the command line:
//   npm run pastor -- add <email>      new account
//   npm run pastor -- passwd <email>   new password (ends the account's sessions)
//   npm run pastor -- list
//   npm run pastor -- remove <email>
// Passwords come from a hidden prompt or from standard input, never from
// the arguments, which stay in shell history and in the process list.
// Uses the same DATABASE_URL (or embedded database under DATA_DIR) as the app.
import net from "node:net";
import { pathToFileURL } from "node:url";
import { config } from "~/services/config.server";
import { DatabaseUnavailableError, closeDb } from "~/services/db.server";
import {
  UserExistsError,
  createUser,
  emailSchema,
  listUsers,
  removeUser,
  setPassword,
} from "~/features/auth/users.server";
import { newPasswordSchema } from "~/features/auth/password-rule.server";

export interface Io {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const USAGE = `Użycie:
  npm run pastor -- add <email>      dodaje konto (hasło z pytania lub ze standardowego wejścia)
  npm run pastor -- passwd <email>   zmienia hasło i kończy sesje konta
  npm run pastor -- list             wypisuje konta
  npm run pastor -- remove <email>   usuwa konto`;

/** Reads a line without echoing it (terminal) or the first line of piped input. */
async function readPassword(io: Io, prompt: string): Promise<string> {
  const { stdin } = io;
  if (stdin.isTTY && stdin.setRawMode) {
    io.stderr.write(prompt);
    stdin.setRawMode(true);
    stdin.resume();
    try {
      return await new Promise<string>((resolve, reject) => {
        let value = "";
        const onData = (chunk: Buffer | string) => {
          for (const ch of String(chunk)) {
            if (ch === "\r" || ch === "\n" || ch === "\u0004") {
              stdin.off("data", onData);
              io.stderr.write("\n");
              return resolve(value);
            }
            if (ch === "\u0003") {
              stdin.off("data", onData);
              io.stderr.write("\n");
              return reject(new Error("Przerwano."));
            }
            if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
            else value += ch;
          }
        };
        stdin.on("data", onData);
      });
    } finally {
      stdin.setRawMode(false);
      stdin.pause();
    }
  }
  let lines = pipedLines.get(stdin);
  if (!lines) pipedLines.set(stdin, (lines = readAll(stdin).then((text) => text.split(/\r?\n/))));
  return (await lines).shift() ?? "";
}

// Piped input is read once; each prompt takes the next line.
const pipedLines = new WeakMap<object, Promise<string[]>>();

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of stream) text += String(chunk);
  return text;
}

async function newPassword(io: Io): Promise<string> {
  const password = await readPassword(io, "Hasło: ");
  const checked = newPasswordSchema.safeParse(password);
  if (!checked.success) throw new Error(checked.error.issues[0].message);
  if (io.stdin.isTTY && (await readPassword(io, "Powtórz hasło: ")) !== password) {
    throw new Error("Hasła się różnią.");
  }
  return password;
}

/** The embedded database may be opened by one process only: refuse while the server runs. */
async function serverRunning(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port, timeout: 500 });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
  });
}

export async function main(args: string[], io: Io): Promise<number> {
  const [command, email, ...rest] = args;
  const out = (line: string) => io.stdout.write(`${line}\n`);
  const fail = (line: string) => (io.stderr.write(`${line}\n`), 1);

  if (!command || !["add", "passwd", "list", "remove"].includes(command)) return fail(USAGE);
  if (rest.length) {
    return fail(
      "Hasła nie podaje się w argumentach: polecenie zapyta o nie albo przeczyta je ze standardowego wejścia.",
    );
  }
  if (command !== "list") {
    if (!email) return fail(USAGE);
    if (!emailSchema.safeParse(email).success) return fail(`Niepoprawny adres e-mail: ${email}`);
  }
  const cfg = config();
  if (cfg.database.kind === "pglite" && cfg.database.dir && (await serverRunning(cfg.port))) {
    return fail(`Serwer działa na porcie ${cfg.port} i używa wbudowanej bazy danych; zatrzymaj go przed zmianą kont.`);
  }

  try {
    switch (command) {
      case "add": {
        const user = await createUser({ email, password: await newPassword(io) });
        out(`Dodano konto ${user.email}.`);
        return 0;
      }
      case "passwd": {
        const changed = await setPassword({ email, password: await newPassword(io) });
        if (!changed) return fail(`Nie ma konta ${email}.`);
        out(`Zmieniono hasło konta ${email.toLowerCase()}; jego sesje zakończono.`);
        return 0;
      }
      case "remove": {
        if (!(await removeUser({ email }))) return fail(`Nie ma konta ${email}.`);
        out(`Usunięto konto ${email.toLowerCase()}.`);
        return 0;
      }
      default: {
        const users = await listUsers();
        if (!users.length) out("Brak kont.");
        for (const u of users) out(`${u.email}\tutworzone ${u.createdAt.toISOString().slice(0, 10)}`);
        return 0;
      }
    }
  } catch (error) {
    if (error instanceof UserExistsError) return fail(error.message);
    if (error instanceof DatabaseUnavailableError)
      return fail("Baza danych jest niedostępna. Sprawdź DATABASE_URL i czy serwer bazy działa.");
    if (error instanceof Error && !(error as { code?: unknown }).code) return fail(error.message);
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2), process)
    .catch((error) => {
      console.error(error);
      return 1;
    })
    .then(async (code) => {
      await closeDb();
      process.exit(code);
    });
}
