import { useMatches } from "@remix-run/react";
import { CSRF_FIELD } from "~/lib/csrf";
import { LOGOUT_PATH } from "~/lib/paths";

/**
 * The token of this session, from the nearest route whose loader returned
 * `csrf` (requireUser gives it: `return { ..., csrf: user.csrf }`).
 */
export function useCsrfToken(): string {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const data = matches[i].data as { csrf?: unknown } | undefined;
    if (data && typeof data.csrf === "string") return data.csrf;
  }
  throw new Error("CsrfInput: the route's loader must return `csrf: user.csrf` from requireUser().");
}

/**
 * Hidden token field required in every POST form of the pastor area;
 * requireUser refuses writes without it. Put it FIRST in the form: in
 * multipart (upload) forms the server looks for it only at the start of
 * the body, so it need not buffer the files.
 *
 *   <Form method="post" encType="multipart/form-data">
 *     <CsrfInput />
 *     ...
 */
export function CsrfInput() {
  return <input type="hidden" name={CSRF_FIELD} value={useCsrfToken()} />;
}

/** The signed-in e-mail and 'wyloguj się', shown at the top of pastor pages. */
export function PastorBar({ email }: { email: string }) {
  return (
    <div className="pastor-bar">
      <span className="pastor-email">{email}</span>
      {/* A full page POST: the public home page it leads to is not a React page. */}
      <form method="post" action={LOGOUT_PATH}>
        <CsrfInput />
        <button type="submit">wyloguj się</button>
      </form>
    </div>
  );
}
