import type { ShouldRevalidateFunction } from "@remix-run/react";
import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";

/** What a field's control needs to be tied to its label and error line. */
function describedBy(id: string, error?: string | null) {
  return { id, "aria-invalid": error ? true : undefined, "aria-describedby": error ? `${id}-error` : undefined };
}

/**
 * A label, a control and its error line. The error is tied to the control
 * with aria-describedby so screen readers read it with the field.
 */
function FieldFrame({
  label,
  error,
  id,
  children,
}: {
  label: ReactNode;
  error?: string | null;
  id: string;
  children: ReactNode;
}) {
  return (
    <p className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {error ? (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      ) : null}
    </p>
  );
}

type FieldProps = { label: ReactNode; error?: string | null; id: string };

export function Field({ label, error, id, ...input }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldFrame label={label} error={error} id={id}>
      <input {...describedBy(id, error)} {...input} />
    </FieldFrame>
  );
}

export function TextAreaField({
  label,
  error,
  id,
  ...textarea
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FieldFrame label={label} error={error} id={id}>
      <textarea {...describedBy(id, error)} {...textarea} />
    </FieldFrame>
  );
}

/** A message for the whole form, announced when it appears. */
export function FormError({ message }: { message?: string | null }) {
  return message ? (
    <p role="alert" className="form-error">
      {message}
    </p>
  ) : null;
}

/** The one-time message after a redirect (see flash.server.ts). */
export function FlashMessage({ message }: { message?: string | null }) {
  return message ? (
    <p role="status" className="flash">
      {message}
    </p>
  ) : null;
}

/**
 * `reloadDocument` for pastor forms: posted as a document also with
 * JavaScript. While the database is away the answer is the server's 'Nie
 * zapisano zmian' page holding every field typed (app/http/pastor-door.server.ts);
 * a script's data request would get a 503 it cannot show, and the page would
 * fall to the error boundary and lose the text.
 */
export const DOCUMENT_POST = true;

/**
 * `shouldRevalidate` of a pastor page whose forms post with the script (a
 * fetcher, a form without DOCUMENT_POST). While the database is away such a
 * post is answered 503 `{ error }` (app/http/pastor-door.server.ts), which the
 * page shows beside its form, still filled in. Single fetch reads every
 * route's data again after an action unless the route says no here; that read
 * would fail too, and its answer, a reload into the outage page, would lose
 * what was typed.
 */
export const keepPageWhenNotSaved: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  actionStatus === 503 ? false : defaultShouldRevalidate;
