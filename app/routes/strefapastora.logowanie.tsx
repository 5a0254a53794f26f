import type { ActionFunctionArgs, HeadersFunction, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { LoginRefusedError, authenticator, getUser, safeRedirect } from "~/features/auth/auth.server";
import { forbidden, isSameOrigin, isValidLoginCsrf, loginCsrfToken } from "~/features/auth/csrf.server";
import { CSRF_FIELD } from "~/lib/csrf";
import { createSession, destroySession } from "~/features/auth/session.server";
import pastorStyles from "~/styles/pastor.css";

// The only public page of the pastor area; every other one calls requireUser.

export const handle = { hydrate: true };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: pastorStyles }];

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

export async function action({ request }: ActionFunctionArgs) {
  if (!isSameOrigin(request)) throw forbidden();
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
  return redirect(redirectTo, { headers: { "Set-Cookie": await createSession(user.id) } });
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
