import crypto from "node:crypto";
import { createCookieSessionStorage, type SessionStorage } from "@remix-run/node";
import { eq, lt, or } from "drizzle-orm";
import { clock } from "~/services/clock.server";
import { config } from "~/services/config.server";
import { sessions, users } from "~/services/schema";
import { withDb } from "~/services/db.server";
import { deviceIdOf } from "~/features/auth/device-token.server";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A session unused this long ends (sliding: every use pushes it forward). */
export const SESSION_IDLE_MS = 14 * DAY_MS;
/** However active, a session ends this long after sign-in; the cookie lives as long. */
export const SESSION_MAX_MS = 30 * DAY_MS;
// The idle expiry is pushed forward at most this often, not on every request.
const TOUCH_INTERVAL_MS = 60 * 1000;

export interface SessionUser {
  id: number;
  email: string;
  /** Per-session token every pastor-area form sends back (see CsrfInput). */
  csrf: string;
  /** The row of this session (a hash of the cookie's id, never the id itself). */
  sessionId: string;
  /** The device id the browser's device token names (not checked against the table), or null. */
  deviceId: string | null;
}

import { SESSION_COOKIE_NAMES, WeakSessionSecret, sessionSecrets } from "~/services/session-secret.server";

export { SESSION_COOKIE_NAMES, WeakSessionSecret, sessionSecrets };

let storage: SessionStorage<{ sid: string }> | undefined;

/** The cookie holds only a random session id; the rest lives in the sessions table. */
export function sessionStorage(): SessionStorage<{ sid: string }> {
  if (!storage) {
    const secure = config().isProduction;
    storage = createCookieSessionStorage<{ sid: string }>({
      cookie: {
        // __Host- makes browsers refuse the cookie from a subdomain or without Secure.
        name: secure ? SESSION_COOKIE_NAMES[1] : SESSION_COOKIE_NAMES[0],
        httpOnly: true,
        sameSite: "lax",
        secure,
        path: "/",
        maxAge: SESSION_MAX_MS / 1000,
        secrets: sessionSecrets(),
      },
    });
  }
  return storage;
}

// Only a hash is stored: a copy of the table does not yield usable cookies.
const rowId = (sid: string) => crypto.createHash("sha256").update(sid).digest("hex");

/** Derived from the session id, so it needs no storage and dies with the session. */
function csrfTokenFor(sid: string): string {
  return crypto.createHmac("sha256", sid).update("csrf").digest("base64url");
}

async function readSessionId(cookies: string | null): Promise<string | null> {
  const session = await sessionStorage().getSession(cookies);
  const sid = session.get("sid");
  return typeof sid === "string" && /^[A-Za-z0-9_-]{43}$/.test(sid) ? sid : null;
}

/** Starts a session for the user; returns the Set-Cookie header value. */
export async function createSession(
  userId: number,
  device: { userAgent?: string | null; address?: string | null } = {},
): Promise<string> {
  const sid = crypto.randomBytes(32).toString("base64url");
  const now = clock.now();
  await withDb(async (db) => {
    // Ended sessions are swept here; sign-ins are rare enough.
    await db
      .delete(sessions)
      .where(or(lt(sessions.expiresAt, now), lt(sessions.createdAt, new Date(now.getTime() - SESSION_MAX_MS))));
    await db.insert(sessions).values({
      id: rowId(sid),
      userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SESSION_IDLE_MS),
      // Bounded: the header is the client's to write.
      userAgent: device.userAgent?.slice(0, 512) ?? null,
      address: device.address?.slice(0, 64) ?? null,
    });
  });
  const session = await sessionStorage().getSession();
  session.set("sid", sid);
  return sessionStorage().commitSession(session);
}

/**
 * The signed-in user of this request, or null. `hadCookie` tells a stale
 * cookie (revoked or expired session) from none at all.
 */
export async function readSession(request: Request): Promise<{ user: SessionUser | null; hadCookie: boolean }> {
  const sid = await readSessionId(request.headers.get("Cookie"));
  if (!sid) return { user: null, hadCookie: false };
  const now = clock.now();
  const [row] = await withDb((db) =>
    db
      .select({
        userId: users.id,
        email: users.email,
        expiresAt: sessions.expiresAt,
        createdAt: sessions.createdAt,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.id, rowId(sid)))
      .limit(1),
  );
  if (!row) return { user: null, hadCookie: true };
  const t = now.getTime();
  if (row.expiresAt.getTime() <= t || row.createdAt.getTime() + SESSION_MAX_MS <= t) {
    return { user: null, hadCookie: true };
  }
  if (row.expiresAt.getTime() < t + SESSION_IDLE_MS - TOUCH_INTERVAL_MS) {
    await withDb((db) =>
      db
        .update(sessions)
        .set({ expiresAt: new Date(t + SESSION_IDLE_MS) })
        .where(eq(sessions.id, rowId(sid))),
    );
  }
  return {
    user: {
      id: row.userId,
      email: row.email,
      csrf: csrfTokenFor(sid),
      sessionId: rowId(sid),
      deviceId: await deviceIdOf(request),
    },
    hadCookie: true,
  };
}

/**
 * Ends the session a browser's cookies name (its Cookie header) on the
 * server; returns a Set-Cookie header that clears the cookie.
 */
export async function destroySession(cookies: string | null): Promise<string> {
  const sid = await readSessionId(cookies);
  if (sid) await withDb((db) => db.delete(sessions).where(eq(sessions.id, rowId(sid))));
  return clearSessionCookie();
}

export async function clearSessionCookie(): Promise<string> {
  return sessionStorage().destroySession(await sessionStorage().getSession());
}
