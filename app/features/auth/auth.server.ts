import { redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { clock } from "~/services/clock.server";
import { forbidden, isSameOrigin, readSubmittedToken, tokensEqual } from "~/features/auth/csrf.server";
import { hasDeviceToken, rememberDevice } from "~/features/auth/device-token.server";
import { clearPendingSignInCookie } from "~/features/auth/pending-sign-in.server";
import { LOGIN_LIMITS, beginLoginAttempt } from "~/features/auth/sign-in-limits.server";
import { recordActivityNow, recordRefusedSignIn } from "~/features/activity/activity.server";
import { clientAddress } from "~/http/request-context.server";
import { type User, findUserById, verifyLogin } from "~/features/auth/users.server";
import { twoFactorEnabled, verifySecondFactor } from "~/features/auth/two-factor.server";
import {
  type SessionUser,
  clearSessionCookie,
  createSession,
  destroySession,
  readSession,
} from "~/features/auth/session.server";
import { HOME_PATH, LOGIN_PATH, PANEL_PATH } from "~/lib/paths";

export type { SessionUser } from "~/features/auth/session.server";

/** Thrown by the sign-in strategy; `message` is what the login page shows. */
export class LoginRefusedError extends Error {
  constructor(
    readonly reason: "invalid" | "invalid-code" | "locked" | "slowed",
    readonly retryAfterSeconds = 0,
  ) {
    super(
      reason === "invalid-code"
        ? "Nieprawidłowy kod weryfikacyjny."
        : reason === "locked"
          ? `Zbyt wiele nieudanych prób logowania. Spróbuj ponownie za ${Math.ceil(retryAfterSeconds / 60)} min.`
          : reason === "slowed"
            ? `Zbyt wiele prób logowania na to konto. Spróbuj ponownie za ${
                retryAfterSeconds < 60 ? `${retryAfterSeconds} s` : `${Math.ceil(retryAfterSeconds / 60)} min`
              }.`
            : // The same words whether the e-mail exists or not.
              "Niepoprawne dane logowania!",
    );
    this.name = "LoginRefusedError";
  }
}

/** A right password; with `secondFactor` the account's code must follow before a session. */
export type PasswordAccepted = User & { secondFactor: boolean };

export const authenticator = new Authenticator<PasswordAccepted>();

/**
 * A sign-in refused by a limit goes into the history of changes as one line
 * per address within the limits' window, counted: a flood of guesses, each
 * with a new e-mail, cannot flood the history.
 */
function recordRefusal(typed: string, address: string | null, now: Date) {
  const since = new Date(now.getTime() - LOGIN_LIMITS.windowMs);
  return recordRefusedSignIn({ typed, address, since, at: now });
}

authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    const address = clientAddress();
    const now = clock.now();
    const attempt = await beginLoginAttempt({
      address,
      email,
      trustedDevice: await hasDeviceToken(request.headers.get("Cookie"), email),
      now,
    });
    if (!attempt.allowed) {
      await recordRefusal(email, address, now);
      throw new LoginRefusedError(attempt.reason, attempt.retryAfterSeconds);
    }
    const user = email && password ? await verifyLogin({ email, password }) : null;
    if (!user) {
      await attempt.failed();
      throw new LoginRefusedError("invalid");
    }
    const secondFactor = await twoFactorEnabled(user.id);
    await (secondFactor ? attempt.secondStepFollows() : attempt.succeeded());
    // The history names a sign-in once a session is made: here, or after the code.
    if (!secondFactor) await recordActivityNow({ actor: user, action: "signed_in", address });
    return { ...user, secondFactor };
  }),
  "form",
);

/**
 * The second step of sign-in: a code from the app or a recovery code, for
 * the account a right password named. Counted by the same limits as
 * passwords (a wrong code is a failure for that e-mail and address) and
 * refused with the same messages. Null when the account is gone or no
 * longer has a second factor: sign-in starts again.
 */
export async function verifySignInCode(cookies: string | null, userId: number, code: string): Promise<User | null> {
  const user = await findUserById(userId);
  if (!user || !(await twoFactorEnabled(user.id))) return null;
  const address = clientAddress();
  const now = clock.now();
  const attempt = await beginLoginAttempt({
    address,
    email: user.email,
    trustedDevice: await hasDeviceToken(cookies, user.email),
    now,
  });
  if (!attempt.allowed) {
    await recordRefusal(user.email, address, now);
    throw new LoginRefusedError(attempt.reason, attempt.retryAfterSeconds);
  }
  if (!(await verifySecondFactor({ userId: user.id, code: code.slice(0, 64) }))) {
    await attempt.failed();
    throw new LoginRefusedError("invalid-code");
  }
  await attempt.succeeded();
  await recordActivityNow({ actor: user, action: "signed_in", address });
  return user;
}

/**
 * A signed-in pastor's confirmation with a code or the password (turning
 * the second factor off, new recovery codes), under the sign-in limits: a
 * stolen session cannot guess codes faster than a stranger at the door.
 * Throws LoginRefusedError ("invalid-code" when `check` says no).
 */
export async function confirmUnderLimits<T>(
  cookies: string | null,
  email: string,
  check: () => Promise<T | null | false>,
): Promise<T> {
  const attempt = await beginLoginAttempt({
    address: clientAddress(),
    email,
    trustedDevice: await hasDeviceToken(cookies, email),
    now: clock.now(),
  });
  if (!attempt.allowed) throw new LoginRefusedError(attempt.reason, attempt.retryAfterSeconds);
  const result = await check();
  if (!result) {
    await attempt.failed();
    throw new LoginRefusedError("invalid-code");
  }
  await attempt.succeeded();
  return result;
}

/** The browser a sign-in comes from, as its request tells. */
export interface SigningBrowser {
  /** Its Cookie header: the session it had, the device token it carries. */
  cookies: string | null;
  userAgent: string | null;
  address: string | null;
}

/**
 * A new session for the user, as at every sign-in: a session this browser
 * had before ends (a new id each time), a new one starts, the browser is
 * remembered as one of the account's devices, and a pending code step is
 * over. Returns the Set-Cookie header values for the reply, in order.
 */
export async function signInCookies(userId: number, browser: SigningBrowser): Promise<string[]> {
  await destroySession(browser.cookies);
  return [
    await createSession(userId, { userAgent: browser.userAgent, address: browser.address }),
    await rememberDevice(browser.cookies, userId, browser.userAgent),
    await clearPendingSignInCookie(),
  ];
}

/** The signed-in user, or null; for pages that are public but differ when signed in. */
export async function getUser(request: Request): Promise<SessionUser | null> {
  return (await readSession(request)).user;
}

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The guard of the pastor area: the FIRST line of every loader and action
 * under /strefapastora (a parent route's guard does not protect a child's
 * loader or action in Remix):
 *
 *   export async function loader({ request }: LoaderFunctionArgs) {
 *     const user = await requireUser(request);
 *     return { ..., email: user.email, csrf: user.csrf };
 *   }
 *
 * Without a valid session it throws a redirect to `redirectTo` ("/", as on
 * the original site). On writes it also refuses (403) a request from another site
 * or without this session's token, so every form there renders
 * `<CsrfInput />` (app/components/pastor.tsx), which reads `csrf` from the
 * loader data.
 */
export async function requireUser(request: Request, { redirectTo = HOME_PATH } = {}): Promise<SessionUser> {
  return requireReadUser(request, await readSession(request), { redirectTo });
}

/** As requireUser, for a session the caller has already read (one read per request). */
export async function requireReadUser(
  request: Request,
  { user, hadCookie }: Awaited<ReturnType<typeof readSession>>,
  { redirectTo = HOME_PATH } = {},
): Promise<SessionUser> {
  if (!user) {
    // A revoked or expired session's cookie is cleared on the way out.
    throw redirect(redirectTo, hadCookie ? { headers: { "Set-Cookie": await clearSessionCookie() } } : undefined);
  }
  if (!READ_METHODS.has(request.method.toUpperCase())) {
    if (!isSameOrigin(request)) throw forbidden();
    if (!tokensEqual(await readSubmittedToken(request), user.csrf)) throw forbidden();
  }
  return user;
}

/**
 * A same-site path to go to after sign-in, or the panel. The check runs on
 * the normalised URL: `/.//x`, `/a/..//x` and `/%2e//x` only become `//x`
 * (another host to a browser) once dot-segments are resolved. Backslashes
 * (read as `/` by browsers) and control characters (stripped by browsers)
 * fall back to the panel before parsing.
 */
export function safeRedirect(to: unknown, fallback = PANEL_PATH): string {
  if (typeof to !== "string" || to.length > 2000) return fallback;
  if (!to.startsWith("/") || /[\\\u0000-\u0020\u007f]/.test(to)) return fallback;
  const base = "http://same-site.invalid";
  let url: URL;
  try {
    url = new URL(to, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base) return fallback;
  if (!url.pathname.startsWith("/") || url.pathname.startsWith("//")) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Back to the login page would only bounce to the panel.
  return path.startsWith(LOGIN_PATH) ? fallback : path;
}
