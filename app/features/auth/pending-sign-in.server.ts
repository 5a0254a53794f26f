import crypto from "node:crypto";
import { createCookie } from "@remix-run/node";
import { clock } from "~/services/clock.server";
import { config } from "~/services/config.server";
import { sessionSecrets } from "~/features/auth/session.server";
import { PANEL_PATH } from "~/lib/paths";

/**
 * Between the password and the code of an account with a second factor, no
 * session exists: the browser holds this cookie, signed with the session
 * secret, naming the account, where to go afterwards and when it expires.
 * It grants nothing but the right to type a code (still under the sign-in
 * limits); the expiry is checked on the server, not left to the browser.
 */
export const PENDING_SIGN_IN_MS = 5 * 60 * 1000;

export interface PendingSignIn {
  userId: number;
  redirectTo: string;
  expiresAt: number;
}

let cookie: ReturnType<typeof createCookie> | undefined;
function pendingCookie() {
  cookie ??= createCookie("sign-in-step", {
    httpOnly: true,
    sameSite: "lax",
    secure: config().isProduction,
    // With JavaScript the form posts to /strefapastora/logowanie.data.
    path: PANEL_PATH,
    maxAge: PENDING_SIGN_IN_MS / 1000,
    secrets: sessionSecrets(),
  });
  return cookie;
}

/** The Set-Cookie header that asks this browser for the account's code next. */
export function pendingSignInCookie(userId: number, redirectTo: string): Promise<string> {
  return pendingCookie().serialize({
    userId,
    redirectTo,
    expiresAt: clock.now().getTime() + PENDING_SIGN_IN_MS,
    // Two sign-ins of one account never carry the same value.
    nonce: crypto.randomBytes(12).toString("base64url"),
  });
}

/** The pending sign-in a browser's Cookie header carries, when genuine and not expired. */
export async function readPendingSignIn(cookies: string | null): Promise<PendingSignIn | null> {
  const value: unknown = await pendingCookie().parse(cookies);
  if (typeof value !== "object" || value === null) return null;
  const { userId, redirectTo, expiresAt } = value as Record<string, unknown>;
  if (typeof userId !== "number" || typeof redirectTo !== "string" || typeof expiresAt !== "number") return null;
  if (expiresAt <= clock.now().getTime()) return null;
  return { userId, redirectTo, expiresAt };
}

export function clearPendingSignInCookie(): Promise<string> {
  return pendingCookie().serialize("", { maxAge: 0 });
}
