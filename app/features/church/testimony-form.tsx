// The testimony form of the pastor area (add and edit): a plain post to the
// page's own action, so it works without JavaScript, and a document post with
// it, so a database outage answers with everything typed kept.
import { Form } from "@remix-run/react";
import { ConflictNote } from "~/components/conflict-note";
import { DOCUMENT_POST, Field, FormError, TextAreaField } from "~/components/forms";
import { CsrfInput } from "~/components/pastor";
import { KEPT_PARAM } from "~/features/kept-forms/messages";
import { TESTIMONY_LABELS, TESTIMONY_TEXT_MAX, type TestimonyField } from "~/features/church/testimonies";

export interface TestimonyFormProps {
  action: string;
  submitLabel: string;
  values: { title: string; text: string; author: string; hidden: boolean };
  /** The version the edit begins from (0 for a new testimony). */
  version: number;
  errors?: Partial<Record<TestimonyField, string>>;
  error?: string | null;
  kept?: { key: string; message: string } | null;
  conflict?: {
    changed: string[];
    current: { title: string; text: string; author: string; hidden: boolean };
    currentHref: string;
  } | null;
}

export function TestimonyForm({
  action,
  submitLabel,
  values,
  version,
  errors = {},
  error,
  kept,
  conflict,
}: TestimonyFormProps) {
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
          current={[
            { label: TESTIMONY_LABELS.title, value: conflict.current.title },
            { label: TESTIMONY_LABELS.text, value: conflict.current.text, long: true },
            { label: TESTIMONY_LABELS.author, value: conflict.current.author },
            { label: "Widoczność", value: conflict.current.hidden ? "ukryte (szkic)" : "widoczne na stronie" },
          ]}
        />
      ) : null}
      {/* A new key whenever the shown values change, so the uncontrolled inputs take them. */}
      <Form
        method="post"
        action={action}
        className="form"
        key={`${version}-${JSON.stringify(values)}`}
        reloadDocument={DOCUMENT_POST}
      >
        <CsrfInput />
        <input type="hidden" name="version" value={version} />
        {kept ? <input type="hidden" name={KEPT_PARAM} value={kept.key} /> : null}
        <Field
          label={TESTIMONY_LABELS.title}
          id="testimony-title"
          name="title"
          defaultValue={values.title}
          error={errors.title}
        />
        <TextAreaField
          label={
            <>
              {TESTIMONY_LABELS.text} <span className="field-note">(akapity oddzielone pustym wierszem)</span>
            </>
          }
          id="testimony-text"
          name="text"
          rows={12}
          maxLength={TESTIMONY_TEXT_MAX * 2}
          defaultValue={values.text}
          error={errors.text}
        />
        <Field
          label={TESTIMONY_LABELS.author}
          id="testimony-author"
          name="author"
          defaultValue={values.author}
          error={errors.author}
        />
        <p className="field checkbox-field">
          <input type="checkbox" id="testimony-hidden" name="hidden" value="1" defaultChecked={values.hidden} />
          <label htmlFor="testimony-hidden">{TESTIMONY_LABELS.hidden}</label>
        </p>
        <button type="submit" className="button">
          {submitLabel}
        </button>
      </Form>
    </>
  );
}
