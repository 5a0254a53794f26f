import crypto from "node:crypto";
import { getTOTPAuthUri, verifyTOTP } from "@epic-web/totp";
import base32Encode from "base32-encode";
import { and, count, eq, inArray, isNull, lt, ne, or, sql } from "drizzle-orm";
import QRCode from "qrcode";
import { clock } from "~/services/clock.server";
import { devices, recoveryCodes, sessions, users } from "~/services/schema";
import { appKey } from "~/services/app-keys.server";
import { withDb } from "~/services/db.server";
import { verifyLogin } from "~/features/auth/users.server";
import { readFacts } from "~/features/church/facts.server";
import { RECOVERY_CODE_COUNT } from "~/lib/two-factor";

/**
 * The pastor's second factor: time-based one-time codes (RFC 6238) from an
 * authenticator app, and single-use recovery codes for a lost phone. The
 * algorithm is @epic-web/totp's; this module keeps the state: the secret
 * being set up, the confirmed one, the last time step used, the codes.
 */

// What every authenticator app understands (the otpauth URI says so too).
const TOTP = { period: 30, digits: 6, algorithm: "SHA-1" } as const;
/** 160 bits, the length RFC 4226 recommends for the shared secret. */
const SECRET_BYTES = 20;
/** The name apps list the account under: the congregation's short name from 'Dane zboru'. */
async function totpIssuer(): Promise<string> {
  const { facts } = await readFacts();
  return facts.headerLine2 || facts.name;
}

const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"; // no 0/o, 1/l/i
const RECOVERY_LENGTH = 10;

export function newTotpSecret(): string {
  return base32Encode(crypto.randomBytes(SECRET_BYTES), "RFC4648", { padding: false });
}

/** Digits only: an app shows "123 456", people type spaces. */
const totpInput = (code: string) => code.replace(/\s+/g, "");
const isTotpShaped = (code: string) => /^\d{6}$/.test(totpInput(code));

/** Recovery codes as compared: lower case, without the dash and spaces shown for reading. */
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * A recovery code is stored under an HMAC with a key of the site's, so the
 * table alone (a leaked dump of it) does not let anyone test guesses.
 */
const RECOVERY_KEY = "recovery-codes";
let recoveryKey: Promise<string> | undefined;
async function hashRecoveryCode(code: string): Promise<string> {
  recoveryKey ??= appKey(RECOVERY_KEY).catch((error: unknown) => {
    // Not kept: the next request asks the database again.
    recoveryKey = undefined;
    throw error;
  });
  return crypto
    .createHmac("sha256", await recoveryKey)
    .update(normalizeRecoveryCode(code))
    .digest("hex");
}
/** How codes made before the keyed hash were stored; they keep working until used or replaced. */
const legacyRecoveryHash = (code: string) =>
  crypto.createHash("sha256").update(normalizeRecoveryCode(code)).digest("hex");

function newRecoveryCode(): string {
  let code = "";
  for (const byte of crypto.randomBytes(RECOVERY_LENGTH * 2)) {
    // Rejection sampling keeps every character equally likely.
    if (byte >= 256 - (256 % RECOVERY_ALPHABET.length)) continue;
    code += RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length];
    if (code.length === RECOVERY_LENGTH) break;
  }
  return code.length === RECOVERY_LENGTH ? `${code.slice(0, 5)}-${code.slice(5)}` : newRecoveryCode();
}

/**
 * The time step whose code `code` is, within one step either side of now,
 * or null. The library reads the clock itself; a step boundary crossed
 * during the check makes the answer ambiguous, so it is asked again.
 */
async function matchingStep(secret: string, code: string): Promise<number | null> {
  const otp = totpInput(code);
  if (!/^\d{6}$/.test(otp)) return null;
  for (;;) {
    const before = Math.floor(Date.now() / 1000 / TOTP.period);
    const result = await verifyTOTP({ otp, secret, ...TOTP, window: 1 });
    const after = Math.floor(Date.now() / 1000 / TOTP.period);
    if (before === after) return result ? before + result.delta : null;
  }
}

/**
 * Checks a current code of the confirmed secret and records its step, so the
 * same code (or an older one) is refused afterwards; the update is atomic,
 * so two requests with one code cannot both pass.
 */
async function useTotpCode(userId: number, code: string): Promise<boolean> {
  const [row] = await withDb((db) =>
    db.select({ secret: users.totpSecret }).from(users).where(eq(users.id, userId)).limit(1),
  );
  if (!row?.secret) return false;
  const step = await matchingStep(row.secret, code);
  if (step === null) return false;
  const updated = await withDb((db) =>
    db
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id }),
  );
  return updated.length > 0;
}

async function useRecoveryCode(userId: number, code: string): Promise<boolean> {
  const normalized = normalizeRecoveryCode(code);
  if (normalized.length !== RECOVERY_LENGTH) return false;
  const hashes = [await hashRecoveryCode(normalized), legacyRecoveryHash(normalized)];
  const used = await withDb((db) =>
    db
      .update(recoveryCodes)
      .set({ usedAt: clock.now() })
      .where(
        and(eq(recoveryCodes.userId, userId), inArray(recoveryCodes.codeHash, hashes), isNull(recoveryCodes.usedAt)),
      )
      .returning({ id: recoveryCodes.id }),
  );
  return used.length > 0;
}

/** Replaces the account's recovery codes with ten new ones; returns them (shown once, never stored). */
async function replaceRecoveryCodes(userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const hashes = await Promise.all(codes.map(hashRecoveryCode));
  await withDb((db) =>
    db.transaction(async (tx) => {
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await tx.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
    }),
  );
  return codes;
}

export async function twoFactorEnabled(userId: number): Promise<boolean> {
  const [row] = await withDb((db) =>
    db.select({ on: users.totpEnabledAt }).from(users).where(eq(users.id, userId)).limit(1),
  );
  return Boolean(row?.on);
}

export interface TwoFactorState {
  enabledAt: Date | null;
  /** Unused recovery codes left. */
  recoveryCodesLeft: number;
  /** While being set up: what the page shows to scan or type. */
  setup: { secret: string; uri: string; qrSvg: string } | null;
}

export async function twoFactorState(userId: number): Promise<TwoFactorState> {
  const [row] = await withDb((db) =>
    db
      .select({
        email: users.email,
        enabledAt: users.totpEnabledAt,
        pending: users.pendingTotpSecret,
      })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1),
  );
  if (!row) return { enabledAt: null, recoveryCodesLeft: 0, setup: null };
  const [{ left }] = await withDb((db) =>
    db
      .select({ left: count() })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt))),
  );
  let setup: TwoFactorState["setup"] = null;
  if (row.pending && !row.enabledAt) {
    const uri = getTOTPAuthUri({ ...TOTP, secret: row.pending, accountName: row.email, issuer: await totpIssuer() });
    const qrSvg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 4, width: 220 });
    setup = { secret: row.pending, uri, qrSvg };
  }
  return { enabledAt: row.enabledAt, recoveryCodesLeft: left, setup };
}

/** Starts (or restarts) setting up: a new secret waits for its first code. False when already on. */
export async function startTwoFactorSetup(userId: number): Promise<boolean> {
  const rows = await withDb((db) =>
    db
      .update(users)
      .set({ pendingTotpSecret: newTotpSecret() })
      .where(and(eq(users.id, userId), isNull(users.totpEnabledAt)))
      .returning({ id: users.id }),
  );
  return rows.length > 0;
}

export async function cancelTwoFactorSetup(userId: number): Promise<void> {
  await withDb((db) => db.update(users).set({ pendingTotpSecret: null }).where(eq(users.id, userId)));
}

/**
 * The first code from the app proves it holds the secret: the second factor
 * is then on, and the ten recovery codes are returned to be shown once.
 * Null for a wrong code (or nothing being set up).
 */
export async function confirmTwoFactorSetup({
  userId,
  code,
  keepSessionId,
}: {
  userId: number;
  code: string;
  /** The session that turned it on stays; every other session of the account ends. */
  keepSessionId?: string;
}): Promise<string[] | null> {
  const [row] = await withDb((db) =>
    db
      .select({ pending: users.pendingTotpSecret, enabledAt: users.totpEnabledAt })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1),
  );
  if (!row?.pending || row.enabledAt) return null;
  const step = await matchingStep(row.pending, code);
  if (step === null) return null;
  // A session opened with the password alone (perhaps by whoever made the
  // pastor turn the second factor on) must not outlive it.
  const switched = await withDb((db) =>
    db.transaction(async (tx) => {
      const done = await tx
        .update(users)
        .set({
          totpSecret: row.pending,
          totpEnabledAt: clock.now(),
          totpLastStep: step,
          pendingTotpSecret: null,
        })
        .where(and(eq(users.id, userId), eq(users.pendingTotpSecret, row.pending!), isNull(users.totpEnabledAt)))
        .returning({ id: users.id });
      if (done.length) {
        await tx
          .delete(sessions)
          .where(
            and(eq(sessions.userId, userId), keepSessionId === undefined ? undefined : ne(sessions.id, keepSessionId)),
          );
      }
      return done;
    }),
  );
  if (!switched.length) return null;
  return replaceRecoveryCodes(userId);
}

/**
 * The second step of sign-in: a current code from the app (each used once)
 * or an unused recovery code (then used up). What matched, or null.
 */
export async function verifySecondFactor({
  userId,
  code,
}: {
  userId: number;
  code: string;
}): Promise<"totp" | "recovery" | null> {
  if (!(await twoFactorEnabled(userId))) return null;
  if (isTotpShaped(code)) return (await useTotpCode(userId, code)) ? "totp" : null;
  return (await useRecoveryCode(userId, code)) ? "recovery" : null;
}

/**
 * New recovery codes (the old ones stop working), for a signed-in pastor
 * who proves he still has the app with a current code. Null for a wrong code.
 */
export async function regenerateRecoveryCodes({
  userId,
  code,
}: {
  userId: number;
  code: string;
}): Promise<string[] | null> {
  if (!(await twoFactorEnabled(userId))) return null;
  if (!(await useTotpCode(userId, code))) return null;
  return replaceRecoveryCodes(userId);
}

async function turnOff(userId: number): Promise<void> {
  await withDb((db) =>
    db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null, pendingTotpSecret: null })
        .where(eq(users.id, userId));
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    }),
  );
}

/**
 * Turns the second factor off for a signed-in pastor who confirms with a
 * current code from the app or with the account's password. False when
 * neither matches.
 */
export async function disableTwoFactor({
  userId,
  email,
  codeOrPassword,
}: {
  userId: number;
  email: string;
  codeOrPassword: string;
}): Promise<boolean> {
  if (!(await twoFactorEnabled(userId))) return false;
  // Passwords have at least 12 characters, so six digits can only be a code.
  const ok = isTotpShaped(codeOrPassword)
    ? await useTotpCode(userId, codeOrPassword)
    : (await verifyLogin({ email, password: codeOrPassword }))?.id === userId;
  if (!ok) return false;
  await turnOff(userId);
  return true;
}

/**
 * The operator's way back in for a lost phone (`zbor pastor reset-2fa`):
 * the second factor off, recovery codes gone, every session and remembered device of the
 * account ended. "missing" when there is no such account.
 */
export async function resetTwoFactor({ email }: { email: string }): Promise<"reset" | "was-off" | "missing"> {
  const [row] = await withDb((db) =>
    db
      .select({ id: users.id, enabledAt: users.totpEnabledAt })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
      .limit(1),
  );
  if (!row) return "missing";
  await turnOff(row.id);
  if (!row.enabledAt) return "was-off";
  await withDb(async (db) => {
    await db.delete(sessions).where(eq(sessions.userId, row.id));
    // A remembered browser would pass the per-e-mail slowdown to guess codes no more asked for.
    await db.delete(devices).where(eq(devices.userId, row.id));
  });
  return "reset";
}
