import Bowser from "bowser";
import { and, desc, eq, gt, ne } from "drizzle-orm";
import { clock } from "~/services/clock.server";
import { withDb } from "~/services/db.server";
import { sessions } from "~/services/schema";
import { SESSION_IDLE_MS, SESSION_MAX_MS } from "~/features/auth/session.server";

/** One signed-in device as the pastor's devices page lists it. */
export interface Device {
  id: string;
  /** "Chrome 131 · Android 14", from the User-Agent given at sign-in. */
  name: string;
  signedInAt: string;
  /** Accurate to a minute: a session's expiry is pushed forward at most once a minute. */
  lastUsedAt: string;
  address: string | null;
  current: boolean;
}

/** Browser and system, as a person names them; "nieznane urządzenie" when the header says nothing useful. */
export function deviceName(userAgent: string | null): string {
  if (!userAgent) return "nieznane urządzenie";
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, parsed.browser.version?.split(".")[0]].filter(Boolean).join(" ");
  const system = [parsed.os.name, parsed.os.versionName ?? parsed.os.version].filter(Boolean).join(" ");
  return [browser, system].filter(Boolean).join(" · ") || "nieznane urządzenie";
}

/** The user's sessions still in force, this one first, then by last use. */
export async function listDevices(userId: number, currentSessionId: string): Promise<Device[]> {
  const now = clock.now();
  const rows = await withDb((db) =>
    db
      .select({
        id: sessions.id,
        userAgent: sessions.userAgent,
        address: sessions.address,
        createdAt: sessions.createdAt,
        expiresAt: sessions.expiresAt,
      })
      .from(sessions)
      .where(
        and(
          eq(sessions.userId, userId),
          gt(sessions.expiresAt, now),
          gt(sessions.createdAt, new Date(now.getTime() - SESSION_MAX_MS)),
        ),
      )
      .orderBy(desc(sessions.expiresAt)),
  );
  return rows
    .map((r) => ({
      id: r.id,
      name: deviceName(r.userAgent),
      signedInAt: r.createdAt.toISOString(),
      lastUsedAt: new Date(r.expiresAt.getTime() - SESSION_IDLE_MS).toISOString(),
      address: r.address,
      current: r.id === currentSessionId,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** Signs one of the user's devices out; false when it was not signed in (any more). */
export async function signOutDevice(userId: number, sessionId: string): Promise<boolean> {
  const gone = await withDb((db) =>
    db
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), eq(sessions.id, sessionId)))
      .returning({ id: sessions.id }),
  );
  return gone.length > 0;
}

/** Signs every device of the user out but this one; returns how many. */
export async function signOutOtherDevices(userId: number, currentSessionId: string): Promise<number> {
  const gone = await withDb((db) =>
    db
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), ne(sessions.id, currentSessionId)))
      .returning({ id: sessions.id }),
  );
  return gone.length;
}
