import crypto from "node:crypto";
import { type Cookie, createCookie } from "@remix-run/node";
import { and, eq, gt, lt } from "drizzle-orm";
import { clock } from "~/services/clock.server";
import { config } from "~/services/config.server";
import { withDb } from "~/services/db.server";
import { devices, users } from "~/services/schema";
import { throttleEmail } from "~/features/auth/sign-in-limits.server";
import { PANEL_PATH } from "~/lib/paths";

/**
 * A browser in which an account has signed in carries this cookie: a random
 * token (256 bits) naming a row of the devices table, where only its SHA-256
 * is kept. The row makes the browser one of the account's remembered devices:
 * the per-e-mail slowdown of sign-in does not apply to it (failures from
 * strangers never keep the pastor out of his own browser), and a form it
 * posts after its session ended is kept for him (app/features/kept-forms).
 * It grants nothing else: the password and the per-address limits still
 * apply. Removing the row (the devices page, a new password, a reset of the
 * second factor, the account's removal) takes it all back at once.
 */
export const DEVICE_MAX_AGE_MS = 365 * 24 * 60 * 60 * 1000;

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

let cookie: Cookie | undefined;
function deviceCookie(): Cookie {
  cookie ??= createCookie("device", {
    httpOnly: true,
    sameSite: "lax",
    secure: config().isProduction,
    // Only the pastor area reads it; with JavaScript the sign-in form posts to
    // /strefapastora/logowanie.data, outside a path of /strefapastora/logowanie.
    path: PANEL_PATH,
    maxAge: DEVICE_MAX_AGE_MS / 1000,
  });
  return cookie;
}

// Only a hash is stored: a copy of the table does not yield usable cookies.
const rowId = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

/** The token in a browser's Cookie header, or null. */
async function tokenOf(cookies: string | null): Promise<string | null> {
  const value: unknown = await deviceCookie().parse(cookies);
  return typeof value === "string" && TOKEN.test(value) ? value : null;
}

/**
 * The device (row) id the request's token names, whether or not such a row
 * exists: whatever is tied to a device compares with it, so a token that
 * names no row matches nothing.
 */
export async function deviceIdOf(request: Request): Promise<string | null> {
  return deviceIdIn(request.headers.get("Cookie"));
}

async function deviceIdIn(cookies: string | null): Promise<string | null> {
  const token = await tokenOf(cookies);
  return token ? rowId(token) : null;
}

export interface RememberedDevice {
  /** The row id (a hash of the token). */
  id: string;
  userId: number;
  email: string;
}

/** The remembered device of an existing account the request's token names, or null. */
async function findDevice(id: string): Promise<RememberedDevice | null> {
  const since = new Date(clock.now().getTime() - DEVICE_MAX_AGE_MS);
  const [row] = await withDb((db) =>
    db
      .select({ id: devices.id, userId: devices.userId, email: users.email })
      .from(devices)
      .innerJoin(users, eq(users.id, devices.userId))
      .where(and(eq(devices.id, id), gt(devices.lastUsedAt, since)))
      .limit(1),
  );
  return row ?? null;
}

/** True when a browser's Cookie header carries a remembered device of the account with this e-mail. */
export async function hasDeviceToken(cookies: string | null, email: string): Promise<boolean> {
  const id = await deviceIdIn(cookies);
  if (!id) return false;
  const device = await findDevice(id);
  return device !== null && throttleEmail(device.email) === throttleEmail(email);
}

/**
 * The remembered device the request carries, with its account, or null
 * without one (or when the database cannot say). Kept forms belong to it.
 */
export async function deviceOwner(request: Request): Promise<RememberedDevice | null> {
  const id = await deviceIdOf(request);
  if (!id) return null;
  try {
    return await findDevice(id);
  } catch {
    // The database is down: nothing can be kept anyway.
    return null;
  }
}

/** Notes a use of the device (a kept form), for the devices page. */
export async function touchDevice(id: string): Promise<void> {
  await withDb((db) => db.update(devices).set({ lastUsedAt: clock.now() }).where(eq(devices.id, id)));
}

/**
 * At sign-in: the browser's device of this account is used again (its cookie
 * renewed for a year), or a new one is remembered. A token of another account
 * is replaced, and its row goes: no browser carries it any more. Devices
 * unused for a year are forgotten here. `cookies` is the browser's Cookie
 * header. Returns the Set-Cookie header.
 */
export async function rememberDevice(
  cookies: string | null,
  userId: number,
  userAgent: string | null,
): Promise<string> {
  const now = clock.now();
  const carried = await tokenOf(cookies);
  const bounded = userAgent?.slice(0, 512) ?? null;
  const token = await withDb(async (db) => {
    await db.delete(devices).where(lt(devices.lastUsedAt, new Date(now.getTime() - DEVICE_MAX_AGE_MS)));
    if (carried) {
      const [own] = await db
        .update(devices)
        .set({ lastUsedAt: now, userAgent: bounded })
        .where(and(eq(devices.id, rowId(carried)), eq(devices.userId, userId)))
        .returning({ id: devices.id });
      if (own) return carried;
      await db.delete(devices).where(eq(devices.id, rowId(carried)));
    }
    const fresh = crypto.randomBytes(32).toString("base64url");
    await db.insert(devices).values({ id: rowId(fresh), userId, createdAt: now, lastUsedAt: now, userAgent: bounded });
    return fresh;
  });
  return deviceCookie().serialize(token);
}
