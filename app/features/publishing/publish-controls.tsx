import {
  PREVIEW_NOTE,
  PUBLISH_AT_LABEL,
  PUBLISH_AT_NOTE,
  SAVE_DRAFT_LABEL,
  type Publication,
  publicationLabel,
} from "~/features/publishing/publication";

/**
 * The publication date-time of the article and album forms: a native
 * `datetime-local` input (no script needed), read as Warsaw time.
 */
export function PublishAtField({
  id,
  defaultValue,
  error,
}: {
  id: string;
  defaultValue?: string;
  error?: string | null;
}) {
  const note = `${id}-note`;
  const errorId = `${id}-error`;
  return (
    <p className="field">
      <label htmlFor={id}>{PUBLISH_AT_LABEL}</label>
      <input
        type="datetime-local"
        id={id}
        name="publishAt"
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${errorId} ${note}` : note}
      />
      <span id={note} className="field-note">
        {PUBLISH_AT_NOTE}
      </span>
      {error ? (
        <span id={errorId} className="field-error">
          {error}
        </span>
      ) : null}
    </p>
  );
}

/** 'zapisz jako szkic': the second submit button beside a form's publish button. */
export function SaveDraftButton({ disabled }: { disabled?: boolean }) {
  return (
    <button type="submit" name="intent" value="draft" className="secondary" formNoValidate disabled={disabled}>
      {SAVE_DRAFT_LABEL}
    </button>
  );
}

/**
 * The publish button (`label`) and 'zapisz jako szkic' of a form with a
 * photo; both wait while the upload script sends the form, so a second
 * press cannot send it twice.
 */
export function PublishButtons({ label, busy = false }: { label: string; busy?: boolean }) {
  return (
    <div className="form-buttons">
      <button type="submit" name="intent" value="publish" disabled={busy} aria-busy={busy || undefined}>
        {label}
      </button>
      <SaveDraftButton disabled={busy} />
    </div>
  );
}

/** An item's state as the pastor's lists and pages show it. */
export function PublicationBadge({ publication }: { publication: Publication }) {
  return <span className={`publication publication-${publication.state}`}>{publicationLabel(publication)}</span>;
}

/** The bar over a preview: what it is and the item's state. */
export function PreviewBar({ publication }: { publication: Publication }) {
  return (
    <div className="preview-bar" role="note">
      <strong>{PREVIEW_NOTE}</strong> <span>Stan: </span>
      <PublicationBadge publication={publication} />
    </div>
  );
}
