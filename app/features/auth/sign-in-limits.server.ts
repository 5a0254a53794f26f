import { isIP } from "node:net";
import { and, eq, gt, lt, ne, sql } from "drizzle-orm";
import { config } from "~/services/config.server";
import { loginFailures, loginLockouts } from "~/services/schema";
import { loginBrowserId } from "~/features/auth/csrf.server";
import { type Db, withDb } from "~/services/db.server";

/**
 * Brute-force limits for sign-in. Counters are rows in Postgres so every
 * app instance sees the same numbers. Every function takes `now` so tests
 * can move through time.
 */
export const LOGIN_LIMITS = {
  windowMs: 15 * 60 * 1000,
  // Failures within the window that lock the client IP out...
  perIpAndEmail: 5,
  perIp: 20,
  // ...for this long, even with the right password.
  lockoutMs: 15 * 60 * 1000,
  // An e-mail failing this often from all IPs together is slowed, never
  // locked, so an attacker cannot keep the pastor out.
  perEmailSlowdown: 50,
  slowdownIntervalMs: 30 * 1000,
};

/**
 * The client address, read from X-Forwarded-For only when a proxy we trust
 * sets it (TRUST_PROXY), and then only its last entry (the one our proxy
 * appended); "local" otherwise.
 */
export function clientIp(request: Request, trustProxy = config().trustProxy): string {
  if (!trustProxy) return "local";
  const entries = (request.headers.get("X-Forwarded-For") ?? "").split(",");
  const last = entries[entries.length - 1].trim().replace(/^::ffff:(?=\d+\.)/i, "");
  return isIP(last) ? last : "local";
}

/**
 * Who the sign-in limits count as one client. remix-serve does not hand the
 * socket address to the app, so without a trusted proxy one shared key would
 * let any stranger lock the pastor out with five wrong passwords. Instead
 * each browser (its login form cookie) is counted on its own; an attacker
 * who discards cookies still meets the per-e-mail slowdown.
 */
export async function clientKey(request: Request, trustProxy = config().trustProxy): Promise<string> {
  if (trustProxy) return clientIp(request, true);
  const browser = await loginBrowserId(request);
  return browser ? `browser:${browser}` : "local";
}

/** E-mails as counted: trimmed, lower case, bounded in length. */
export function throttleEmail(email: string): string {
  return email.trim().toLowerCase().slice(0, 254);
}

export type LoginAttempt =
  | {
      allowed: true;
      /** The password was wrong: keep the failure, lock the IP when a limit is reached. */
      failed(): Promise<void>;
      /** Signed in: forget this IP's failures for this e-mail. */
      succeeded(): Promise<void>;
    }
  | { allowed: false; reason: "locked" | "slowed"; retryAfterSeconds: number };

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Call before checking a password. The attempt is recorded as a failure
 * first and counted with all others, so parallel guesses cannot slip past
 * the limits between the check and the verification.
 */
export async function beginLoginAttempt({
  ip,
  email: rawEmail,
  now,
}: {
  ip: string;
  email: string;
  now: Date;
}): Promise<LoginAttempt> {
  const email = throttleEmail(rawEmail);
  const L = LOGIN_LIMITS;
  const t = now.getTime();
  return withDb(async (db) => {
    const [lock] = await db
      .select({ until: loginLockouts.until })
      .from(loginLockouts)
      .where(and(eq(loginLockouts.ip, ip), gt(loginLockouts.until, now)));
    if (lock) return { allowed: false, reason: "locked", retryAfterSeconds: seconds(lock.until.getTime() - t) };

    const [own] = await db.insert(loginFailures).values({ ip, email, at: now }).returning({ id: loginFailures.id });
    const since = new Date(t - L.windowMs);
    const [counts] = await db
      .select({
        ipAndEmail:
          sql<number>`count(*) filter (where ${loginFailures.ip} = ${ip} and ${loginFailures.email} = ${email})`.mapWith(
            Number,
          ),
        ip: sql<number>`count(*) filter (where ${loginFailures.ip} = ${ip})`.mapWith(Number),
        email: sql<number>`count(*) filter (where ${loginFailures.email} = ${email})`.mapWith(Number),
      })
      .from(loginFailures)
      .where(and(gt(loginFailures.at, since), sql`(${loginFailures.ip} = ${ip} or ${loginFailures.email} = ${email})`));

    const lockIp = (d: Db) =>
      d
        .insert(loginLockouts)
        .values({ ip, until: new Date(t + L.lockoutMs) })
        .onConflictDoUpdate({ target: loginLockouts.ip, set: { until: new Date(t + L.lockoutMs) } });
    const forgetOwn = () => db.delete(loginFailures).where(eq(loginFailures.id, own.id));

    // Beyond a limit already: only parallel attempts get here.
    if (counts.ipAndEmail > L.perIpAndEmail || counts.ip > L.perIp) {
      await lockIp(db);
      await forgetOwn();
      return { allowed: false, reason: "locked", retryAfterSeconds: seconds(L.lockoutMs) };
    }

    if (counts.email - 1 >= L.perEmailSlowdown) {
      const [latest] = await db
        .select({ at: sql<Date>`max(${loginFailures.at})`.mapWith(loginFailures.at) })
        .from(loginFailures)
        .where(and(eq(loginFailures.email, email), ne(loginFailures.id, own.id), gt(loginFailures.at, since)));
      const waitMs = latest?.at ? latest.at.getTime() + L.slowdownIntervalMs - t : 0;
      if (waitMs > 0) {
        await forgetOwn();
        return { allowed: false, reason: "slowed", retryAfterSeconds: seconds(waitMs) };
      }
    }

    return {
      allowed: true,
      failed: () =>
        withDb(async (d) => {
          if (counts.ipAndEmail >= L.perIpAndEmail || counts.ip >= L.perIp) await lockIp(d);
          // Old rows are swept as new ones come.
          await d.delete(loginFailures).where(lt(loginFailures.at, since));
          await d.delete(loginLockouts).where(lt(loginLockouts.until, now));
        }),
      succeeded: () =>
        withDb(async (d) => {
          await d.delete(loginFailures).where(and(eq(loginFailures.ip, ip), eq(loginFailures.email, email)));
        }),
    };
  });
}
