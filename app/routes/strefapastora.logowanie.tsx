import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { LoginRefusedError, authenticator, getUser, safeRedirect } from "~/features/auth/auth.server";
import { forbidden, isSameOrigin, isValidLoginCsrf, loginCsrfToken } from "~/features/auth/csrf.server";
import { CSRF_FIELD } from "~/lib/csrf";
import { readBodyCapped } from "~/services/streams.server";
import { clientAddress } from "~/http/request-context.server";
import { createSession, destroySession } from "~/features/auth/session.server";
import { deviceTokenCookie } from "~/features/auth/device-token.server";

// The only public page of the pastor area; every other one calls requireUser.

export const headers: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers({ "Cache-Control": "no-store" });
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"));
  if (await getUser(request)) throw redirect(redirectTo);
  const { token, setCookie } = await loginCsrfToken(request);
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (setCookie) headers.append("Set-Cookie", setCookie);
  return data({ redirectTo, csrf: token }, { headers });
}

const LOGIN_FORM_MAX_BYTES = 16 * 1024;

export async function action({ request }: ActionFunctionArgs) {
  if (!isSameOrigin(request)) throw forbidden();
  // A sign-in form is a few short fields: a larger body is refused unread.
  const body = await readBodyCapped(request, LOGIN_FORM_MAX_BYTES);
  if (!body) return data({ error: "Formularz jest zbyt duży.", email: "" }, { status: 413 });
  // The bytes read, as a request again: the authenticator reads the form too.
  request = new Request(request.url, { method: request.method, headers: request.headers, body: new Uint8Array(body) });
  const form = await request.clone().formData();
  const email = String(form.get("email") ?? "").slice(0, 254);
  const redirectTo = safeRedirect(form.get("redirectTo"));
  if (!(await isValidLoginCsrf(request, form.get(CSRF_FIELD)))) {
    return data({ error: "Formularz wygasł. Spróbuj ponownie.", email }, { status: 403 });
  }
  let user;
  try {
    user = await authenticator.authenticate("form", request);
  } catch (error) {
    if (!(error instanceof LoginRefusedError)) throw error;
    const limited = error.reason !== "invalid";
    return data(
      { error: error.message, email },
      {
        status: limited ? 429 : 400,
        headers: limited ? { "Retry-After": String(error.retryAfterSeconds) } : undefined,
      },
    );
  }
  // A new id at every sign-in; a session this browser had before ends.
  await destroySession(request);
  const headers = new Headers({
    "Set-Cookie": await createSession(user.id, {
      userAgent: request.headers.get("User-Agent"),
      address: clientAddress(),
    }),
  });
  headers.append("Set-Cookie", await deviceTokenCookie(user.email));
  return redirect(redirectTo, { headers });
}

export default function Login() {
  const { redirectTo, csrf } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <section className="page login">
      <h1>Strefa pastora</h1>
      <Form method="post" className="form" aria-describedby={result?.error ? "login-error" : undefined}>
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
            defaultValue={result?.email ?? ""}
            aria-invalid={result?.error ? true : undefined}
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
            aria-invalid={result?.error ? true : undefined}
          />
        </p>
        {result?.error ? (
          <p id="login-error" role="alert" className="form-error">
            {result.error}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          Login
        </button>
      </Form>
    </section>
  );
}
