// `zbor pastor add|passwd|list|remove|reset-2fa`: passwords never as arguments.
import { execFile } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { promisify } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import { generateTOTP } from "@epic-web/totp";
import { findUserByEmail, verifyLogin } from "~/features/auth/users.server";
import {
  confirmTwoFactorSetup,
  startTwoFactorSetup,
  twoFactorEnabled,
  twoFactorState,
} from "~/features/auth/two-factor.server";
import { main } from "../../scripts/pastor";
import { PASTOR, signIn } from "../auth-helpers";
import { request, resetDatabase, settle } from "../helpers";

function sink() {
  let text = "";
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

/** With input, the password comes from standard input (--password-stdin). */
async function run(args: string[], input?: string) {
  if (input !== undefined) args = [...args, "--password-stdin"];
  const out = sink();
  const err = sink();
  const code = await main(args, { stdin: Readable.from([input ?? ""]), stdout: out.stream, stderr: err.stream });
  return { code, out: out.text(), err: err.text() };
}

beforeEach(resetDatabase);

describe("pastor CLI", () => {
  it("adds an account with the password from standard input", async () => {
    const r = await run(["add", "Pastor@Example.org"], `${PASTOR.password}\n`);
    expect(r).toMatchObject({ code: 0, out: "Dodano konto pastor@example.org.\n" });
    expect(await verifyLogin(PASTOR)).not.toBeNull();
    expect((await run(["add", "pastor@example.org"], "inne-haslo-123\n")).err).toBe(
      "Konto pastor@example.org już istnieje.\n",
    );
  });

  it("refuses a password given as an argument, and short or common passwords", async () => {
    const r = await run(["add", "pastor@example.org", "haslo-w-argumencie"]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/Hasła nie podaje się w argumentach/);
    expect((await run(["add", "pastor@example.org"], "krotkie-123\n")).err).toBe(
      "Hasło musi mieć co najmniej 12 znaków.\n",
    );
    expect((await run(["add", "pastor@example.org"], "qwerty123456\n")).err).toBe(
      "To hasło jest zbyt popularne lub zbyt proste i łatwo je odgadnąć. Wybierz inne.\n",
    );
    expect((await run(["list"])).out).toBe("Brak kont.\n");
    await run(["add", "pastor@example.org"], `${PASTOR.password}\n`);
    expect((await run(["passwd", "pastor@example.org"], "Password2024!\n")).err).toBe(
      "To hasło jest zbyt popularne lub zbyt proste i łatwo je odgadnąć. Wybierz inne.\n",
    );
    expect(await verifyLogin(PASTOR)).not.toBeNull();
  });

  it("lists and removes accounts", async () => {
    await run(["add", "b@example.org"], "haslo-pierwsze\n");
    await run(["add", "a@example.org"], "haslo-drugie-1\n");
    const list = await run(["list"]);
    expect(list.out).toMatch(/^a@example\.org\tutworzone \d{4}-\d\d-\d\d\nb@example\.org\t/);
    expect(list.out).not.toMatch(/haslo|argon2/);
    expect(await run(["remove", "A@example.org"])).toMatchObject({ code: 0, out: "Usunięto konto a@example.org.\n" });
    expect(await run(["remove", "a@example.org"])).toMatchObject({ code: 1, err: "Nie ma konta a@example.org.\n" });
  });

  it("changes a password and ends the account's sessions", async () => {
    await run(["add", PASTOR.email], `${PASTOR.password}\n`);
    const cookie = await signIn();
    const r = await run(["passwd", PASTOR.email], "zupelnie-nowe-haslo\n");
    expect(r.code).toBe(0);
    const { loader } = await import("~/routes/strefapastora._index");
    const res = await settle(() =>
      loader({ request: request("/strefapastora", { headers: { Cookie: cookie } }), params: {}, context: {} }),
    );
    expect(res.headers.get("Location")).toBe("/strefapastora/logowanie");
    expect(await verifyLogin({ email: PASTOR.email, password: "zupelnie-nowe-haslo" })).not.toBeNull();
  });

  it("turns the second factor off for a lost phone and ends the account's sessions", async () => {
    await run(["add", PASTOR.email], `${PASTOR.password}\n`);
    const cookie = await signIn();
    const { id } = (await findUserByEmail(PASTOR.email))!;
    await startTwoFactorSetup(id);
    const { secret } = (await twoFactorState(id)).setup!;
    const { otp } = await generateTOTP({ secret, period: 30, digits: 6, algorithm: "SHA-1" });
    expect(await confirmTwoFactorSetup({ userId: id, code: otp })).toHaveLength(10);

    const r = await run(["reset-2fa", "Pastor@Example.org"]);
    expect(r).toMatchObject({
      code: 0,
      out: "Wyłączono weryfikację dwuetapową konta pastor@example.org i usunięto jego kody odzyskiwania; jego sesje zakończono, a urządzenia zapomniano.\n",
    });
    expect(await twoFactorEnabled(id)).toBe(false);
    const { loader } = await import("~/routes/strefapastora._index");
    const res = await settle(() =>
      loader({ request: request("/strefapastora", { headers: { Cookie: cookie } }), params: {}, context: {} }),
    );
    expect(res.headers.get("Location")).toBe("/strefapastora/logowanie");
    // The password alone signs in again.
    await signIn();

    expect((await run(["reset-2fa", PASTOR.email])).out).toBe(
      "Konto pastor@example.org nie ma włączonej weryfikacji dwuetapowej.\n",
    );
    expect(await run(["reset-2fa", "nikt@example.org"])).toMatchObject({
      code: 1,
      err: "Nie ma konta nikt@example.org.\n",
    });
    expect((await run([])).err).toMatch(/zbor pastor reset-2fa <email>/);
  });

  it("asks for the password only on a terminal, or reads it with --password-stdin", async () => {
    const r = await run(["add", PASTOR.email]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/Nie ma terminala.*--password-stdin/);
    expect((await run(["list"])).out).toBe("Brak kont.\n");
    // Only the first line is the password.
    expect((await run(["add", PASTOR.email], `${PASTOR.password}\ndrugi wiersz\n`)).code).toBe(0);
    expect(await verifyLogin(PASTOR)).not.toBeNull();
  });

  it("explains its use", async () => {
    for (const args of [[], ["drop"], ["add"], ["add", "nie-email"]]) {
      const r = await run(args);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/Użycie|Niepoprawny adres e-mail/);
    }
  });

  it.runIf(process.env.DATABASE_URL?.startsWith("postgres"))("runs as `npm run pastor`", async () => {
    const child = promisify(execFile)(
      "npm",
      ["run", "-s", "pastor", "--", "add", "cli@example.org", "--password-stdin"],
      {
        env: process.env,
      },
    );
    child.child.stdin!.end("haslo-z-potoku-1\n");
    const { stdout } = await child;
    expect(stdout).toContain("Dodano konto cli@example.org.");
    expect(await verifyLogin({ email: "cli@example.org", password: "haslo-z-potoku-1" })).not.toBeNull();
  });
});
