import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { keepPageWhenNotSaved } from "~/components/forms";
import {
  LoginRefusedError,
  authenticator,
  getUser,
  safeRedirect,
  signInCookies,
  verifySignInCode,
} from "~/features/auth/auth.server";
import type { User } from "~/features/auth/users.server";
import {
  clearPendingSignInCookie,
  pendingSignInCookie,
  readPendingSignIn,
} from "~/features/auth/pending-sign-in.server";
import { LOGIN_PATH } from "~/lib/paths";
import { forbidden, isSameOrigin, isValidLoginCsrf, loginCsrfToken } from "~/features/auth/csrf.server";
import { CSRF_FIELD } from "~/lib/csrf";
import { readSmallForm } from "~/http/small-form.server";
import { signInHeaders } from "~/http/cache.server";
import { clientAddress } from "~/http/request-context.server";

// The only public page of the pastor area; every other one calls requireUser.

export const headers = signInHeaders;
// A sign-in sent during a database outage stays on this page with its message and the typed e-mail.
export const shouldRevalidate = keepPageWhenNotSaved;

export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"));
  if (await getUser(request)) throw redirect(redirectTo);
  const cookies = request.headers.get("Cookie");
  const { token, setCookie } = await loginCsrfToken(cookies);
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (setCookie) headers.append("Set-Cookie", setCookie);
  // After a right password of an account with a second factor: the code.
  const step = (await readPendingSignIn(cookies)) ? "code" : "password";
  return data({ redirectTo, csrf: token, step }, { headers });
}

const LOGIN_FORM_MAX_BYTES = 16 * 1024;

/** A refused form; `step: "code"` when it was the code's (the password step's answers stay as they were). */
type ActionResult = { error: string; email: string; step?: "code" };

function refused(error: unknown, email: string, step?: "code") {
  if (!(error instanceof LoginRefusedError)) throw error;
  const limited = error.reason === "locked" || error.reason === "slowed";
  return data<ActionResult>(step ? { error: error.message, email, step } : { error: error.message, email }, {
    status: limited ? 429 : 400,
    headers: limited ? { "Retry-After": String(error.retryAfterSeconds) } : undefined,
  });
}

/** A new session for the user (see signInCookies), and the way to where he was going. */
async function signedIn(request: Request, user: User, redirectTo: string) {
  const headers = new Headers();
  const browser = {
    cookies: request.headers.get("Cookie"),
    userAgent: request.headers.get("User-Agent"),
    address: clientAddress(),
  };
  for (const cookie of await signInCookies(user.id, browser)) headers.append("Set-Cookie", cookie);
  return redirect(redirectTo, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  if (!isSameOrigin(request)) throw forbidden();
  // A sign-in form is a few short fields: a larger body is refused unread (413).
  const form = await readSmallForm(request, LOGIN_FORM_MAX_BYTES);
  // The fields read, as a request again: the authenticator reads the form too.
  const headers = new Headers(request.headers);
  headers.delete("Content-Length");
  headers.set("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8");
  request = new Request(request.url, { method: request.method, headers, body: form.toString() });
  const cookies = request.headers.get("Cookie");
  const intent = form.get("intent");
  const email = String(form.get("email") ?? "").slice(0, 254);
  if (!(await isValidLoginCsrf(cookies, form.get(CSRF_FIELD)))) {
    const expired = { error: "Formularz wygasł. Spróbuj ponownie.", email };
    return data<ActionResult>(intent === "code" ? { ...expired, step: "code" } : expired, { status: 403 });
  }

  if (intent === "restart") {
    return redirect(LOGIN_PATH, { headers: { "Set-Cookie": await clearPendingSignInCookie() } });
  }
  if (intent === "code") {
    const pending = await readPendingSignIn(cookies);
    const expired = async () =>
      data<ActionResult>(
        { error: "Czas na wpisanie kodu minął. Zaloguj się ponownie.", email: "" },
        { status: 400, headers: { "Set-Cookie": await clearPendingSignInCookie() } },
      );
    if (!pending) return expired();
    let user;
    try {
      user = await verifySignInCode(cookies, pending.userId, String(form.get("code") ?? ""));
    } catch (error) {
      return refused(error, "", "code");
    }
    if (!user) return expired();
    return signedIn(request, user, pending.redirectTo);
  }

  const redirectTo = safeRedirect(form.get("redirectTo"));
  let user;
  try {
    user = await authenticator.authenticate("form", request);
  } catch (error) {
    return refused(error, email);
  }
  if (user.secondFactor) {
    // No session yet: the same page asks for the code next.
    return redirect(LOGIN_PATH, {
      headers: { "Set-Cookie": await pendingSignInCookie(user.id, redirectTo) },
    });
  }
  return signedIn(request, user, redirectTo);
}

export default function Login() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  // After a refused form, the step it came from (a refused code keeps the code step).
  const step = result ? (result.step ?? "password") : loaded.step;
  const error = result?.error ?? null;
  return (
    <section className="page login">
      <h1>Strefa pastora</h1>
      {step === "code" ? (
        <CodeStep csrf={loaded.csrf} error={error} busy={busy} />
      ) : (
        <PasswordStep
          csrf={loaded.csrf}
          redirectTo={loaded.redirectTo}
          error={error}
          email={result?.email ?? ""}
          busy={busy}
        />
      )}
    </section>
  );
}

function PasswordStep({
  csrf,
  redirectTo,
  error,
  email,
  busy,
}: {
  csrf: string;
  redirectTo: string;
  error: string | null;
  email: string;
  busy: boolean;
}) {
  return (
    <Form method="post" className="form" aria-describedby={error ? "login-error" : undefined}>
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <p className="field">
        <label htmlFor="login-email">Login</label>
        <input
          id="login-email"
          name="email"
          type="email"
          autoComplete="username"
          required
          maxLength={254}
          defaultValue={email}
          aria-invalid={error ? true : undefined}
        />
      </p>
      <p className="field">
        <label htmlFor="login-password">Hasło</label>
        <input
          id="login-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={error ? true : undefined}
        />
      </p>
      {error ? (
        <p id="login-error" role="alert" className="form-error">
          {error}
        </p>
      ) : null}
      <button type="submit" disabled={busy}>
        Login
      </button>
    </Form>
  );
}

function CodeStep({ csrf, error, busy }: { csrf: string; error: string | null; busy: boolean }) {
  return (
    <>
      <Form method="post" className="form" aria-describedby={error ? "code-error" : "code-help"}>
        <input type="hidden" name={CSRF_FIELD} value={csrf} />
        <input type="hidden" name="intent" value="code" />
        <p className="field">
          <label htmlFor="login-code">Kod weryfikacyjny</label>
          <input
            id="login-code"
            name="code"
            type="text"
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            required
            maxLength={64}
            aria-invalid={error ? true : undefined}
          />
        </p>
        <p id="code-help" className="field-note">
          Wpisz sześciocyfrowy kod z aplikacji uwierzytelniającej. Jeśli nie masz telefonu, wpisz jeden z kodów
          odzyskiwania.
        </p>
        {error ? (
          <p id="code-error" role="alert" className="form-error">
            {error}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          Zaloguj
        </button>
      </Form>
      <Form method="post" className="form">
        <input type="hidden" name={CSRF_FIELD} value={csrf} />
        <button type="submit" name="intent" value="restart" className="secondary">
          zaloguj się od nowa
        </button>
      </Form>
    </>
  );
}
