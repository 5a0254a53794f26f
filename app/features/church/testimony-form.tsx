// The testimony form of the pastor area (add and edit): a plain post to the
// page's own action, so it works without JavaScript, and a document post with
// it, so a database outage answers with everything typed kept.
import { Field, TextAreaField } from "~/components/forms";
import { VersionedForm } from "~/components/versioned-form";
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
    <VersionedForm
      action={action}
      submitLabel={submitLabel}
      version={version}
      values={values}
      error={error}
      kept={kept}
      conflict={
        conflict
          ? {
              changed: conflict.changed,
              currentHref: conflict.currentHref,
              current: [
                { label: TESTIMONY_LABELS.title, value: conflict.current.title },
                { label: TESTIMONY_LABELS.text, value: conflict.current.text, long: true },
                { label: TESTIMONY_LABELS.author, value: conflict.current.author },
                { label: "Widoczność", value: conflict.current.hidden ? "ukryte (szkic)" : "widoczne na stronie" },
              ],
            }
          : null
      }
    >
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
    </VersionedForm>
  );
}
