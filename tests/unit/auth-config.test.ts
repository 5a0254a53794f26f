// Settings of the sign-in: secrets, proxy trust, the start-up accounts.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { config, readConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { verifyLogin } from "~/features/auth/users.server";
import { ensureStartupAccounts } from "~/features/auth/users.server";
import { sessionSecrets } from "~/features/auth/session.server";
import { passwordProblem } from "~/features/auth/password-rule.server";
import { resetDatabase } from "../helpers";

const SECRET = "s".repeat(32);

describe("configuration", () => {
  it("requires SESSION_SECRET in production with an external database", () => {
    expect(() => readConfig({ NODE_ENV: "production", DATABASE_URL: "postgres://u@h/db" })).toThrow(
      /SESSION_SECRET: is required in production/,
    );
    expect(
      readConfig({ NODE_ENV: "production", DATABASE_URL: "postgres://u@h/db", SESSION_SECRET: SECRET }).sessionSecrets,
    ).toEqual([SECRET]);
  });

  it("lets the embedded default (npm start) run in production without one", () => {
    const c = readConfig({ NODE_ENV: "production" });
    expect(c.sessionSecrets).toEqual([]);
    expect(c.demoAccount).toBe(true);
    expect(readConfig({ DATABASE_URL: "memory:" }).demoAccount).toBe(false);
    expect(readConfig({ DATABASE_URL: "postgres://u@h/db" }).demoAccount).toBe(false);
  });

  it("refuses short secrets and accepts a list for rotation", () => {
    expect(() => readConfig({ SESSION_SECRET: "short" })).toThrow(/SESSION_SECRET: must be at least 32 characters/);
    expect(readConfig({ SESSION_SECRET: `${SECRET},${"o".repeat(40)}` }).sessionSecrets).toEqual([
      SECRET,
      "o".repeat(40),
    ]);
  });

  it("reads TRUST_PROXY as a flag, off by default", () => {
    expect(readConfig({}).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(true);
    expect(readConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(() => readConfig({ TRUST_PROXY: "maybe" })).toThrow(/TRUST_PROXY/);
  });

  it("takes ADMIN_EMAIL and ADMIN_PASSWORD together", () => {
    expect(readConfig({ ADMIN_EMAIL: " Pastor@Example.org", ADMIN_PASSWORD: "dlugie-haslo" }).admin).toEqual({
      email: "pastor@example.org",
      password: "dlugie-haslo",
    });
    expect(readConfig({ ADMIN_EMAIL: "", ADMIN_PASSWORD: "" }).admin).toBeNull();
    expect(() => readConfig({ ADMIN_EMAIL: "pastor@example.org" })).toThrow(
      /ADMIN_PASSWORD: ADMIN_EMAIL and ADMIN_PASSWORD go together/,
    );
    expect(() => readConfig({ ADMIN_EMAIL: "nie-email", ADMIN_PASSWORD: "dlugie-haslo" })).toThrow(/ADMIN_EMAIL/);
    expect(() => readConfig({ ADMIN_EMAIL: "a@b.pl", ADMIN_PASSWORD: "krotkie-123" })).toThrow(
      /ADMIN_PASSWORD: must be at least 12 characters/,
    );
    expect(() => readConfig({ ADMIN_EMAIL: "a@b.pl", ADMIN_PASSWORD: "password1234" })).toThrow(
      /ADMIN_PASSWORD: is a common or simple password: choose another/,
    );
  });
});

it("without SESSION_SECRET generates one under DATA_DIR, private, and keeps it", () => {
  const file = path.join(config().dataDir, "session-secret");
  const [secret] = sessionSecrets();
  expect(secret.length).toBeGreaterThanOrEqual(32);
  expect(fs.readFileSync(file, "utf8").trim()).toBe(secret);
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(sessionSecrets()).toEqual([secret]);
});

describe("accounts made at start", () => {
  let log: ReturnType<typeof vi.spyOn>;
  beforeEach(async () => {
    await resetDatabase();
    log = vi.spyOn(console, "log").mockImplementation(() => {});
  });
  afterEach(() => log.mockRestore());

  it("ADMIN_EMAIL/ADMIN_PASSWORD create that account once and never overwrite it", async () => {
    const cfg = readConfig({ ADMIN_EMAIL: "pastor@example.org", ADMIN_PASSWORD: "pierwsze-haslo" });
    await ensureStartupAccounts(await db(), cfg, { fresh: true });
    expect(await verifyLogin({ email: "pastor@example.org", password: "pierwsze-haslo" })).not.toBeNull();
    const later = readConfig({ ADMIN_EMAIL: "PASTOR@example.org", ADMIN_PASSWORD: "inne-haslo-2" });
    await ensureStartupAccounts(await db(), later, { fresh: false });
    expect(await verifyLogin({ email: "pastor@example.org", password: "pierwsze-haslo" })).not.toBeNull();
    expect(await verifyLogin({ email: "pastor@example.org", password: "inne-haslo-2" })).toBeNull();
  });

  it("a new embedded database gets a demo pastor whose password is printed once", async () => {
    const cfg = readConfig({});
    await ensureStartupAccounts(await db(), cfg, { fresh: true });
    const printed = log.mock.calls.map((c: unknown[]) => String(c[0])).join("\n");
    const email = /adres e-mail: (\S+)/.exec(printed)?.[1];
    const password = /hasło:\s+(\S+)/.exec(printed)?.[1];
    expect(email).toBe("pastor@example.com");
    expect(password!.length).toBeGreaterThanOrEqual(16);
    expect(passwordProblem(password!)).toBeNull();
    expect(await verifyLogin({ email: email!, password: password! })).not.toBeNull();

    log.mockClear();
    await ensureStartupAccounts(await db(), cfg, { fresh: false });
    expect(log).not.toHaveBeenCalled();
  });

  it("no account is made otherwise", async () => {
    await ensureStartupAccounts(await db(), readConfig({ DATABASE_URL: "postgres://u@h/db" }), { fresh: true });
    expect(await (await db()).query.users.findMany()).toEqual([]);
  });
});
