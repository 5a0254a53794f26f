import { isIP } from "node:net";
import { and, desc, eq, gt, lt, ne, or, sql } from "drizzle-orm";
import { loginFailures } from "~/services/schema";
import { withDb } from "~/services/db.server";

/**
 * Brute-force limits for sign-in, counted per client address (the socket's,
 * handed over by the front door), whatever cookies the client sends.
 * Counters are rows in Postgres so every app instance sees the same numbers;
 * each limit is a count over a sliding window. Every function takes `now`
 * so tests can move through time.
 */
export const LOGIN_LIMITS = {
  windowMs: 15 * 60 * 1000,
  // Failures within the window after which an address is refused, even
  // with the right password: for that e-mail...
  perAddressAndEmail: 5,
  // ...and for any e-mail.
  perAddress: 20,
  // Failures for one e-mail from all addresses within this window beyond
  // `perEmailFree` make each next attempt wait twice as long as the one
  // before, up to `perEmailMaxDelayMs`: slowed, never locked, so strangers
  // cannot keep the pastor out (and his own browser skips the wait).
  perEmailWindowMs: 60 * 60 * 1000,
  perEmailFree: 10,
  perEmailMaxDelayMs: 5 * 60 * 1000,
};

/** The wait before the next attempt for an e-mail that failed `failures` times within its window. */
export function perEmailDelayMs(failures: number): number {
  const L = LOGIN_LIMITS;
  if (failures < L.perEmailFree) return 0;
  return Math.min(1000 * 2 ** (failures - L.perEmailFree), L.perEmailMaxDelayMs);
}

/**
 * The address as counted: an IPv6 client by its /64 network, since one
 * subscriber usually holds all of it; anything else as it is.
 */
export function addressKey(address: string | null): string {
  if (!address) return "unknown";
  if (isIP(address) !== 6) return address;
  const [head, tail = ""] = address.toLowerCase().split("%")[0].split("::");
  const groups = (part: string) => (part ? part.split(":") : []);
  const left = groups(head);
  const right = address.includes("::") ? groups(tail) : [];
  // An IPv4 tail (::ffff:1.2.3.4) takes two groups; the /64 prefix never reaches it.
  const size = (g: string[]) => g.reduce((n, x) => n + (x.includes(".") ? 2 : 1), 0);
  const full = [...left, ...Array(Math.max(0, 8 - size(left) - size(right))).fill("0"), ...right];
  return `${full
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** E-mails as counted: trimmed, lower case, bounded in length. */
export function throttleEmail(email: string): string {
  return email.trim().toLowerCase().slice(0, 254);
}

export type LoginAttempt =
  | {
      allowed: true;
      /** The password was wrong: the failure stays counted. */
      failed(): Promise<void>;
      /** Signed in: forget this address's failures for this e-mail. */
      succeeded(): Promise<void>;
      /**
       * The password was right but a code must follow: this attempt is not
       * counted, earlier failures stay until the code is right (else the
       * password alone would reset the count of wrong codes).
       */
      secondStepFollows(): Promise<void>;
    }
  | { allowed: false; reason: "locked" | "slowed"; retryAfterSeconds: number };

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Call before checking a password. The attempt is recorded as a failure
 * first and counted with all others, so parallel guesses cannot slip past
 * the limits between the check and the verification; a refused attempt is
 * not counted. `trustedDevice`: the browser carries this e-mail's device
 * token, so the per-e-mail slowdown does not apply.
 */
export async function beginLoginAttempt({
  address: rawAddress,
  email: rawEmail,
  trustedDevice = false,
  now,
}: {
  address: string | null;
  email: string;
  trustedDevice?: boolean;
  now: Date;
}): Promise<LoginAttempt> {
  const address = addressKey(rawAddress);
  const email = throttleEmail(rawEmail);
  const L = LOGIN_LIMITS;
  const t = now.getTime();
  const since = new Date(t - L.windowMs);
  const emailSince = new Date(t - L.perEmailWindowMs);
  return withDb(async (db) => {
    const [own] = await db
      .insert(loginFailures)
      .values({ address, email, at: now })
      .returning({ id: loginFailures.id });
    const others = ne(loginFailures.id, own.id);
    const sameAddress = eq(loginFailures.address, address);
    const sameEmail = eq(loginFailures.email, email);
    const inWindow = gt(loginFailures.at, since);
    const [counts] = await db
      .select({
        addressAndEmail: sql<number>`count(*) filter (where ${and(sameAddress, sameEmail, inWindow)})`.mapWith(Number),
        address: sql<number>`count(*) filter (where ${and(sameAddress, inWindow)})`.mapWith(Number),
        email: sql<number>`count(*) filter (where ${sameEmail})`.mapWith(Number),
        emailLatest: sql<Date | null>`max(${loginFailures.at}) filter (where ${sameEmail})`.mapWith(loginFailures.at),
      })
      .from(loginFailures)
      .where(and(others, gt(loginFailures.at, emailSince), or(sameAddress, sameEmail)));
    const refuse = async (reason: "locked" | "slowed", waitMs: number): Promise<LoginAttempt> => {
      await db.delete(loginFailures).where(eq(loginFailures.id, own.id));
      return { allowed: false, reason, retryAfterSeconds: seconds(waitMs) };
    };

    // Refused until the failure that reached the limit leaves the window.
    const lockedFor = async (limit: number, forEmail: boolean) => {
      const [reaching] = await db
        .select({ at: loginFailures.at })
        .from(loginFailures)
        .where(and(others, sameAddress, forEmail ? sameEmail : undefined, inWindow))
        .orderBy(desc(loginFailures.at))
        .offset(limit - 1)
        .limit(1);
      return reaching ? reaching.at.getTime() + L.windowMs - t : L.windowMs;
    };
    if (counts.addressAndEmail >= L.perAddressAndEmail) {
      return refuse("locked", await lockedFor(L.perAddressAndEmail, true));
    }
    if (counts.address >= L.perAddress) return refuse("locked", await lockedFor(L.perAddress, false));

    if (!trustedDevice && counts.emailLatest) {
      const waitMs = counts.emailLatest.getTime() + perEmailDelayMs(counts.email) - t;
      if (waitMs > 0) return refuse("slowed", waitMs);
    }

    return {
      allowed: true,
      // Old rows are swept as new ones come.
      failed: () =>
        withDb((d) =>
          d
            .delete(loginFailures)
            .where(lt(loginFailures.at, emailSince))
            .then(() => {}),
        ),
      secondStepFollows: () =>
        withDb(async (d) => {
          await d.delete(loginFailures).where(eq(loginFailures.id, own.id));
        }),
      succeeded: () =>
        withDb(async (d) => {
          await d.delete(loginFailures).where(and(eq(loginFailures.address, address), eq(loginFailures.email, email)));
        }),
    };
  });
}
