import { Link, useMatches } from "@remix-run/react";
import { FlashMessage } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { CSRF_FIELD } from "~/lib/csrf";
import { BIN_PATH, LOGOUT_PATH, PANEL_PATH } from "~/lib/paths";

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

/**
 * The top of a pastor list page: who is signed in, the title, the message
 * left by the last action, the button that adds an item, the bin and the way back.
 */
export function PastorListHeader({
  email,
  title,
  flash,
  addTo,
  addLabel,
}: {
  email: string;
  title: string;
  flash?: string | null;
  addTo: string;
  addLabel: string;
}) {
  return (
    <>
      <PastorBar email={email} />
      <h1>{title}</h1>
      <FlashMessage message={flash} />
      <p className="pastor-actions">
        <Link className="button" to={addTo}>
          {addLabel}
        </Link>
        <Link className="button secondary" to={BIN_PATH}>
          kosz
        </Link>
        <BackLink to={PANEL_PATH} />
      </p>
    </>
  );
}
