import { type Cookie, createCookie } from "@remix-run/node";
import { config } from "~/services/config.server";
import { appKey } from "~/services/app-keys.server";
import { sessionSecrets } from "~/features/auth/session.server";
import { throttleEmail } from "~/features/auth/sign-in-limits.server";
import { PANEL_PATH } from "~/lib/paths";

/**
 * A browser in which an account has signed in before carries this cookie:
 * the account's e-mail, signed (HMAC-SHA256) with a key of its own, made once
 * and kept in the database (so every instance shares it). Not the session
 * secret: dropping that ends every session, and a form posted by a signed-out
 * pastor must still be recognised as his (app/features/kept-forms). Cookies
 * signed with the session secret before the key existed are still read. The
 * per-e-mail slowdown of sign-in does not apply to it, so failures from
 * strangers never keep the pastor out of his own browser. It grants nothing
 * else: the password and the per-address limits still apply.
 */
const DEVICE_TOKEN_MAX_AGE_S = 365 * 24 * 60 * 60;

const DEVICE_KEY = "device-token";

/** The device token's key: read, or made by the first instance that needs it. */
const deviceKey = () => appKey(DEVICE_KEY);

let cookie: Promise<Cookie> | undefined;
function deviceCookie(): Promise<Cookie> {
  cookie ??= deviceKey().then(makeCookie, (error: unknown) => {
    // Not kept: the next request asks the database again.
    cookie = undefined;
    throw error;
  });
  return cookie;
}

function makeCookie(key: string): Cookie {
  return createCookie("device", {
    httpOnly: true,
    sameSite: "lax",
    secure: config().isProduction,
    // Only the sign-in form reads it, but with JavaScript the form posts to
    // /strefapastora/logowanie.data, outside a path of /strefapastora/logowanie.
    path: PANEL_PATH,
    maxAge: DEVICE_TOKEN_MAX_AGE_S,
    // The first signs; the session secrets still verify older cookies.
    secrets: [key, ...sessionSecrets()],
  });
}

/** The Set-Cookie header that marks this browser as one `email` signed in from. */
export async function deviceTokenCookie(email: string): Promise<string> {
  return (await deviceCookie()).serialize({ email: throttleEmail(email) });
}

/** True when the request carries a genuine device token for this e-mail. */
export async function hasDeviceToken(request: Request, email: string): Promise<boolean> {
  const value: unknown = await (await deviceCookie()).parse(request.headers.get("Cookie"));
  if (typeof value !== "object" || value === null) return false;
  const signed = (value as { email?: unknown }).email;
  return typeof signed === "string" && signed === throttleEmail(email);
}

/**
 * The (lower-cased) e-mail of the device token the request carries, or null
 * without a genuine one. Kept forms belong to it (app/features/kept-forms).
 */
export async function deviceOwner(request: Request): Promise<string | null> {
  let value: unknown;
  try {
    value = await (await deviceCookie()).parse(request.headers.get("Cookie"));
  } catch {
    // The database is down: nothing can be kept anyway.
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const signed = (value as { email?: unknown }).email;
  return typeof signed === "string" && signed ? signed : null;
}
