import { createCookie } from "@remix-run/node";
import { config } from "~/services/config.server";
import { sessionSecrets } from "~/features/auth/session.server";
import { throttleEmail } from "~/features/auth/sign-in-limits.server";
import { PANEL_PATH } from "~/lib/paths";

/**
 * A browser in which an account has signed in before carries this cookie:
 * the account's e-mail, signed (HMAC-SHA256 with the session secret). The
 * per-e-mail slowdown of sign-in does not apply to it, so failures from
 * strangers never keep the pastor out of his own browser. It grants nothing
 * else: the password and the per-address limits still apply.
 */
const DEVICE_TOKEN_MAX_AGE_S = 365 * 24 * 60 * 60;

let cookie: ReturnType<typeof createCookie> | undefined;
function deviceCookie() {
  cookie ??= createCookie("device", {
    httpOnly: true,
    sameSite: "lax",
    secure: config().isProduction,
    // Only the sign-in form reads it, but with JavaScript the form posts to
    // /strefapastora/logowanie.data, outside a path of /strefapastora/logowanie.
    path: PANEL_PATH,
    maxAge: DEVICE_TOKEN_MAX_AGE_S,
    secrets: sessionSecrets(),
  });
  return cookie;
}

/** The Set-Cookie header that marks this browser as one `email` signed in from. */
export function deviceTokenCookie(email: string): Promise<string> {
  return deviceCookie().serialize({ email: throttleEmail(email) });
}

/** True when the request carries a genuine device token for this e-mail. */
export async function hasDeviceToken(request: Request, email: string): Promise<boolean> {
  const value: unknown = await deviceCookie().parse(request.headers.get("Cookie"));
  if (typeof value !== "object" || value === null) return false;
  const signed = (value as { email?: unknown }).email;
  return typeof signed === "string" && signed === throttleEmail(email);
}
