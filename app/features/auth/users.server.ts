import { hash, verify } from "@node-rs/argon2";
import pLimit from "p-limit";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import type { Config } from "~/services/config.server";
import { PASSWORD_MAX_LENGTH, newPasswordSchema } from "~/features/auth/password-rule.server";
import { devices, sessions, users } from "~/services/schema";
import { type Db, withDb } from "~/services/db.server";

export const emailSchema = z.string().trim().toLowerCase().email().max(254);

export interface User {
  id: number;
  email: string;
}

// Each argon2 run holds 19 MiB and a core for a while: at most this many run
// at once, however many sign-ins (with any e-mails) arrive together; the rest
// wait their turn, so guesses cannot starve the pages of CPU.
export const ARGON2_CONCURRENCY = 2;
const argon2Slots = pLimit(ARGON2_CONCURRENCY);

/** Running and waiting argon2 computations, for tests of the cap. */
export function argon2Load() {
  return { active: argon2Slots.activeCount, waiting: argon2Slots.pendingCount };
}

// Tests that are not about hashing set ARGON2_TEST_CHEAP=1 (tests/e2e/server.mjs,
// tests/setup): 1 MiB and one pass instead of about 0.1 s of a core per hash.
// Verifying reads the cost from the hash itself, so either kind verifies.
const TEST_COST = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

/** argon2id with the library's defaults (19 MiB, 2 passes): OWASP's recommended minimum. */
export function hashPassword(password: string): Promise<string> {
  const cost = process.env.ARGON2_TEST_CHEAP === "1" ? TEST_COST : undefined;
  return argon2Slots(() => hash(password, cost));
}

const verifyPassword = (passwordHash: string, password: string) =>
  argon2Slots(() => verify(passwordHash, password)).catch(() => false);

// Verified against when the e-mail is unknown, so both cases take as long.
let dummyHash: Promise<string> | undefined;

function byEmail(email: string) {
  return eq(sql`lower(${users.email})`, email.trim().toLowerCase());
}

export async function findUserByEmail(email: string): Promise<User | null> {
  const [row] = await withDb((db) =>
    db.select({ id: users.id, email: users.email }).from(users).where(byEmail(email)).limit(1),
  );
  return row ?? null;
}

export async function findUserById(id: number): Promise<User | null> {
  const [row] = await withDb((db) =>
    db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, id)).limit(1),
  );
  return row ?? null;
}

/**
 * The user whose e-mail and password match, else null. An unknown e-mail
 * costs one argon2 verification too, so timing does not tell them apart.
 */
export async function verifyLogin({ email, password }: { email: string; password: string }): Promise<User | null> {
  if (password.length > PASSWORD_MAX_LENGTH) return null;
  const [row] = await withDb((db) =>
    db
      .select({ id: users.id, email: users.email, passwordHash: users.passwordHash })
      .from(users)
      .where(byEmail(email))
      .limit(1),
  );
  if (!row) {
    dummyHash ??= hashPassword(`dummy-${Math.random()}`);
    await verifyPassword(await dummyHash, password);
    return null;
  }
  const ok = await verifyPassword(row.passwordHash, password);
  return ok ? { id: row.id, email: row.email } : null;
}

export class UserExistsError extends Error {
  constructor(email: string) {
    super(`Konto ${email} już istnieje.`);
    this.name = "UserExistsError";
  }
}

export async function createUser({ email, password }: { email: string; password: string }): Promise<User> {
  const normalized = emailSchema.parse(email);
  const passwordHash = await hashPassword(newPasswordSchema.parse(password));
  const [row] = await withDb((db) =>
    db
      .insert(users)
      .values({ email: normalized, passwordHash })
      .onConflictDoNothing()
      .returning({ id: users.id, email: users.email }),
  );
  if (!row) throw new UserExistsError(normalized);
  return row;
}

/**
 * Sets a new password, ends every session of that account and forgets its
 * devices; `keepDevice` (the pastor's own browser, when he changes it there)
 * stays remembered.
 */
export async function setPassword({
  email,
  password,
  keepDevice,
}: {
  email: string;
  password: string;
  keepDevice?: string | null;
}): Promise<boolean> {
  const passwordHash = await hashPassword(newPasswordSchema.parse(password));
  return withDb((db) =>
    db.transaction(async (tx) => {
      const [row] = await tx.update(users).set({ passwordHash }).where(byEmail(email)).returning({ id: users.id });
      if (!row) return false;
      await tx.delete(sessions).where(eq(sessions.userId, row.id));
      await tx
        .delete(devices)
        .where(and(eq(devices.userId, row.id), keepDevice ? ne(devices.id, keepDevice) : undefined));
      return true;
    }),
  );
}

/** Removes the account; its sessions and devices go with it (foreign key cascade). */
export async function removeUser({ email }: { email: string }): Promise<boolean> {
  const rows = await withDb((db) => db.delete(users).where(byEmail(email)).returning({ id: users.id }));
  return rows.length > 0;
}

export async function listUsers(): Promise<{ email: string; createdAt: Date }[]> {
  return withDb((db) =>
    db.select({ email: users.email, createdAt: users.createdAt }).from(users).orderBy(asc(users.email)),
  );
}

/**
 * Accounts made at start: ADMIN_EMAIL/ADMIN_PASSWORD when that account does
 * not exist yet (an existing password is never overwritten); for a new
 * embedded database without them, a demo pastor with a random password,
 * printed once because it cannot be shown again.
 */
export async function ensureStartupAccounts(db: Db, cfg: Config, { fresh }: { fresh: boolean }) {
  if (cfg.admin) {
    const [existing] = await db.select({ id: users.id }).from(users).where(byEmail(cfg.admin.email)).limit(1);
    if (existing) return;
    const passwordHash = await hashPassword(cfg.admin.password);
    const created = await db
      .insert(users)
      .values({ email: cfg.admin.email, passwordHash })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (created.length) console.log(`Utworzono konto pastora ${cfg.admin.email} (ADMIN_EMAIL).`);
    return;
  }
  if (fresh && cfg.demoAccount) {
    const { randomBytes } = await import("node:crypto");
    const email = "pastor@example.com";
    const password = randomBytes(12).toString("base64url");
    await db
      .insert(users)
      .values({ email, passwordHash: await hashPassword(password) })
      .onConflictDoNothing();
    console.log(
      [
        "",
        "Konto demonstracyjne pastora (pokazywane tylko raz):",
        `  adres e-mail: ${email}`,
        `  hasło:        ${password}`,
        "Zmień je poleceniem: npm run pastor -- passwd pastor@example.com",
        "",
      ].join("\n"),
    );
  }
}
