import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";

/**
 * A labelled field with its error line. The error is tied to the input with
 * aria-describedby so screen readers read it with the field.
 */
export function Field({
  label,
  error,
  id,
  ...input
}: { label: ReactNode; error?: string | null; id: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <p className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...input}
      />
      {error ? (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      ) : null}
    </p>
  );
}

export function TextAreaField({
  label,
  error,
  id,
  ...textarea
}: { label: ReactNode; error?: string | null; id: string } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <p className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...textarea}
      />
      {error ? (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      ) : null}
    </p>
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
