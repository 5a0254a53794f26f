// The frame of a pastor form that saves one row with a version (an event, a
// testimony): the kept form's message, the form's error, the note of a save
// refused over a newer version, and the form itself, posted as a document
// (or by the page's upload script, given `onSubmit`) with the CSRF token, the
// version the edit began from and the kept form's key. The page's fields and
// buttons are its children.
import { Form } from "@remix-run/react";
import type { FormEventHandler, ReactNode } from "react";
import { ConflictNote } from "~/components/conflict-note";
import { DOCUMENT_POST, FormError } from "~/components/forms";
import { CsrfInput } from "~/components/pastor";
import { KEPT_PARAM } from "~/features/kept-forms/messages";

export interface VersionedFormProps {
  action: string;
  /** The main button's words, named by the conflict note. */
  submitLabel: string;
  /** The version the form sends: the one the edit began from (0 for a new row), the stored one after a conflict. */
  version: number;
  /**
   * What the page loaded: a new key whenever it changes, so the uncontrolled
   * inputs take it. A refusal the upload script shows in place leaves the
   * form as typed, its photo still chosen.
   */
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
  /** The upload script's handler (app/components/upload-progress.tsx); without it, a document post. */
  onSubmit?: FormEventHandler<HTMLFormElement>;
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
  onSubmit,
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
        // The version input is controlled: a newer version after a conflict needs no new form.
        key={JSON.stringify(values)}
        reloadDocument={DOCUMENT_POST}
        onSubmit={onSubmit}
      >
        <CsrfInput />
        <input type="hidden" name="version" value={version} />
        {kept ? <input type="hidden" name={KEPT_PARAM} value={kept.key} /> : null}
        {children}
      </Form>
    </>
  );
}
