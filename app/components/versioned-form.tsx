// The frame of a pastor form that saves one row with a version (an event, a
// testimony): the kept form's message, the form's error, the note of a save
// refused over a newer version, and the form itself, posted as a document
// with the CSRF token, the version the edit began from and the kept form's
// key. The page's fields and buttons are its children.
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { ConflictNote } from "~/components/conflict-note";
import { DOCUMENT_POST, FormError } from "~/components/forms";
import { CsrfInput } from "~/components/pastor";
import { KEPT_PARAM } from "~/features/kept-forms/messages";

export interface VersionedFormProps {
  action: string;
  /** The main button's words, named by the conflict note. */
  submitLabel: string;
  /** The version the edit begins from (0 for a new row). */
  version: number;
  /** What the fields show: a new key whenever it changes, so the uncontrolled inputs take it. */
  values: unknown;
  error?: string | null;
  kept?: { key: string; message: string } | null;
  /** A save refused over a newer version: what differs, and the stored row field by field. */
  conflict?: {
    changed: string[];
    current: { label: string; value: string; long?: boolean }[];
    currentHref: string;
  } | null;
  className?: string;
  /** multipart/form-data for a form with a photo. */
  encType?: "multipart/form-data";
  children: ReactNode;
}

export function VersionedForm({
  action,
  submitLabel,
  version,
  values,
  error,
  kept,
  conflict,
  className = "form",
  encType,
  children,
}: VersionedFormProps) {
  return (
    <>
      {kept ? <p className="notice">{kept.message}</p> : null}
      <FormError message={error} />
      {conflict ? (
        <ConflictNote
          changed={conflict.changed}
          sameNote="Obecna wersja nie różni się od Twojej."
          yoursNote={`Twoje zmiany są w formularzu poniżej: „${submitLabel}” zapisze je na obecną wersję.`}
          currentHref={conflict.currentHref}
          current={conflict.current}
        />
      ) : null}
      <Form
        method="post"
        action={action}
        encType={encType}
        className={className}
        key={`${version}-${JSON.stringify(values)}`}
        reloadDocument={DOCUMENT_POST}
      >
        <CsrfInput />
        <input type="hidden" name="version" value={version} />
        {kept ? <input type="hidden" name={KEPT_PARAM} value={kept.key} /> : null}
        {children}
      </Form>
    </>
  );
}
