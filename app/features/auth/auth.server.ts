import { redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { clock } from "~/services/clock.server";
import { forbidden, isSameOrigin, readSubmittedToken, tokensEqual } from "~/features/auth/csrf.server";
import { hasDeviceToken } from "~/features/auth/device-token.server";
import { beginLoginAttempt } from "~/features/auth/sign-in-limits.server";
import { clientAddress } from "~/http/request-context.server";
import { type User, verifyLogin } from "~/features/auth/users.server";
import { clearSessionCookie, readSession, type SessionUser } from "~/features/auth/session.server";
import { HOME_PATH, LOGIN_PATH, PANEL_PATH } from "~/lib/paths";

export type { SessionUser } from "~/features/auth/session.server";

/** Thrown by the sign-in strategy; `message` is what the login page shows. */
export class LoginRefusedError extends Error {
  constructor(
    readonly reason: "invalid" | "locked" | "slowed",
    readonly retryAfterSeconds = 0,
  ) {
    super(
      reason === "locked"
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

export const authenticator = new Authenticator<User>();

authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    const attempt = await beginLoginAttempt({
      address: clientAddress(),
      email,
      trustedDevice: await hasDeviceToken(request, email),
      now: clock.now(),
    });
    if (!attempt.allowed) throw new LoginRefusedError(attempt.reason, attempt.retryAfterSeconds);
    const user = email && password ? await verifyLogin({ email, password }) : null;
    if (!user) {
      await attempt.failed();
      throw new LoginRefusedError("invalid");
    }
    await attempt.succeeded();
    return user;
  }),
  "form",
);

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
  const { user, hadCookie } = await readSession(request);
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
