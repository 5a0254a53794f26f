// Pastor accounts from the command line (`zbor pastor …`, or `npm run pastor -- …`):
//   add <email> [--password-stdin]      new account
//   passwd <email> [--password-stdin]   new password (ends the account's sessions, forgets its devices)
//   list
//   remove <email>
//   reset-2fa <email>                   second factor off (a lost phone), sessions ended, devices forgotten
// Passwords come from a hidden prompt on a terminal or, with --password-stdin,
// from the first line of standard input; never from the arguments, which stay
// in shell history and in the process list.
// Uses the same DATABASE_URL (or embedded database under DATA_DIR) as the app.
import net from "node:net";
import { config } from "~/services/config.server";
import { DatabaseUnavailableError } from "~/services/db.server";
import {
  UserExistsError,
  createUser,
  emailSchema,
  listUsers,
  removeUser,
  setPassword,
} from "~/features/auth/users.server";
import { newPasswordSchema } from "~/features/auth/password-rule.server";
import { resetTwoFactor } from "~/features/auth/two-factor.server";

export interface Io {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const USAGE = `Użycie:
  zbor pastor add <email>      dodaje konto (pyta o hasło)
  zbor pastor passwd <email>   zmienia hasło, kończy sesje konta i zapomina jego urządzenia
  zbor pastor list             wypisuje konta
  zbor pastor remove <email>   usuwa konto
  zbor pastor reset-2fa <email>  wyłącza weryfikację dwuetapową (np. po utracie telefonu), kończy sesje konta i zapomina jego urządzenia
Z opcją --password-stdin add i passwd czytają hasło z pierwszego wiersza standardowego wejścia.`;

const PASSWORD_STDIN = "--password-stdin";

/** Reads a line on the terminal without echoing it. */
async function promptHidden(io: Io, prompt: string): Promise<string> {
  const { stdin } = io;
  io.stderr.write(prompt);
  stdin.setRawMode!(true);
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
    stdin.setRawMode!(false);
    stdin.pause();
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of stream) text += String(chunk);
  return text;
}

const isTerminal = (io: Io) => Boolean(io.stdin.isTTY && io.stdin.setRawMode);

async function newPassword(io: Io, fromStdin: boolean): Promise<string> {
  // Only the first line counts: a trailing newline (echo, a file) is not part of the password.
  const password = fromStdin ? (await readAll(io.stdin)).split(/\r?\n/)[0] : await promptHidden(io, "Hasło: ");
  const checked = newPasswordSchema.safeParse(password);
  if (!checked.success) throw new Error(checked.error.issues[0].message);
  if (!fromStdin && (await promptHidden(io, "Powtórz hasło: ")) !== password) {
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
  const fromStdin = args.includes(PASSWORD_STDIN);
  const [command, email, ...rest] = args.filter((a) => a !== PASSWORD_STDIN);
  const out = (line: string) => io.stdout.write(`${line}\n`);
  const fail = (line: string) => (io.stderr.write(`${line}\n`), 1);

  if (!command || !["add", "passwd", "list", "remove", "reset-2fa"].includes(command)) return fail(USAGE);
  if (rest.length) {
    return fail(
      "Hasła nie podaje się w argumentach: polecenie zapyta o nie albo przeczyta je ze standardowego wejścia.",
    );
  }
  if (command !== "list") {
    if (!email) return fail(USAGE);
    if (!emailSchema.safeParse(email).success) return fail(`Niepoprawny adres e-mail: ${email}`);
  }
  if ((command === "add" || command === "passwd") && !fromStdin && !isTerminal(io)) {
    return fail(
      `Nie ma terminala, by zapytać o hasło: podaj je w pierwszym wierszu standardowego wejścia z opcją ${PASSWORD_STDIN}` +
        ` (np. docker exec -i …).`,
    );
  }
  const cfg = config();
  if (cfg.database.kind === "pglite" && cfg.database.dir && (await serverRunning(cfg.port))) {
    return fail(`Serwer działa na porcie ${cfg.port} i używa wbudowanej bazy danych; zatrzymaj go przed zmianą kont.`);
  }

  try {
    switch (command) {
      case "add": {
        const user = await createUser({ email, password: await newPassword(io, fromStdin) });
        out(`Dodano konto ${user.email}.`);
        return 0;
      }
      case "passwd": {
        const changed = await setPassword({ email, password: await newPassword(io, fromStdin) });
        if (!changed) return fail(`Nie ma konta ${email}.`);
        out(`Zmieniono hasło konta ${email.toLowerCase()}; jego sesje zakończono, a urządzenia zapomniano.`);
        return 0;
      }
      case "reset-2fa": {
        const result = await resetTwoFactor({ email });
        if (result === "missing") return fail(`Nie ma konta ${email}.`);
        if (result === "was-off") {
          out(`Konto ${email.toLowerCase()} nie ma włączonej weryfikacji dwuetapowej.`);
          return 0;
        }
        out(
          `Wyłączono weryfikację dwuetapową konta ${email.toLowerCase()} i usunięto jego kody odzyskiwania; jego sesje zakończono, a urządzenia zapomniano.`,
        );
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
