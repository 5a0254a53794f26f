import Bowser from "bowser";
import { and, desc, eq, gt, ne } from "drizzle-orm";
import { DEVICE_MAX_AGE_MS } from "~/features/auth/device-token.server";
import { clock } from "~/services/clock.server";
import { withDb } from "~/services/db.server";
import { devices, sessions } from "~/services/schema";
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

/**
 * Signs every device of the user out but this one and forgets every
 * remembered device but this browser's; returns how many went.
 */
export async function signOutOtherDevices(
  userId: number,
  current: { sessionId: string; deviceId: string | null },
): Promise<number> {
  return withDb((db) =>
    db.transaction(async (tx) => {
      const ended = await tx
        .delete(sessions)
        .where(and(eq(sessions.userId, userId), ne(sessions.id, current.sessionId)))
        .returning({ id: sessions.id });
      const forgotten = await tx
        .delete(devices)
        .where(and(eq(devices.userId, userId), current.deviceId ? ne(devices.id, current.deviceId) : undefined))
        .returning({ id: devices.id });
      return ended.length + forgotten.length;
    }),
  );
}

/** A browser the account has signed in from, as the devices page lists it. */
export interface RememberedDeviceView {
  id: string;
  name: string;
  firstSignInAt: string;
  lastUsedAt: string;
  current: boolean;
}

/** The user's remembered devices, this browser's first, then by last use. */
export async function listRememberedDevices(
  userId: number,
  currentDeviceId: string | null,
): Promise<RememberedDeviceView[]> {
  const since = new Date(clock.now().getTime() - DEVICE_MAX_AGE_MS);
  const rows = await withDb((db) =>
    db
      .select({
        id: devices.id,
        userAgent: devices.userAgent,
        createdAt: devices.createdAt,
        lastUsedAt: devices.lastUsedAt,
      })
      .from(devices)
      .where(and(eq(devices.userId, userId), gt(devices.lastUsedAt, since)))
      .orderBy(desc(devices.lastUsedAt), desc(devices.id)),
  );
  return rows
    .map((r) => ({
      id: r.id,
      name: deviceName(r.userAgent),
      firstSignInAt: r.createdAt.toISOString(),
      lastUsedAt: r.lastUsedAt.toISOString(),
      current: r.id === currentDeviceId,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/**
 * Forgets one of the user's remembered devices: that browser is slowed at
 * sign-in like any other and keeps no forms. False when it was not (any more).
 */
export async function forgetDevice(userId: number, deviceId: string): Promise<boolean> {
  const gone = await withDb((db) =>
    db
      .delete(devices)
      .where(and(eq(devices.userId, userId), eq(devices.id, deviceId)))
      .returning({ id: devices.id }),
  );
  return gone.length > 0;
}
