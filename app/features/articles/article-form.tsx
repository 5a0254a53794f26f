import { useActionData } from "@remix-run/react";
import type { ReactNode } from "react";
import { Field, FormError, TextAreaField } from "~/components/forms";
import { CsrfInput } from "~/components/pastor";
import type { ArticleRefusal } from "~/features/articles/article-form.server";
import type { ArticleField } from "~/features/articles/save-result";
import { HEADER_MAX } from "~/features/articles/limits";
import { ConflictNote } from "~/components/conflict-note";
import { CHANGED_FIELD_NAMES } from "~/features/articles/messages";
import { KEPT_PARAM, type KeptFormView } from "~/features/kept-forms/messages";
import { PHOTO_NOTES } from "~/lib/photo-notes";

/** A form kept after its session ended, as the page's loader found it. */
export type KeptArticle = KeptFormView & { values: ArticleRefusal["values"] };
import { PublishAtField, PublishButtons } from "~/features/publishing/publish-controls";

/** What the fields of a page need: the values to show and which inputs a refusal is about. */
export interface ArticleFormState {
  /** What was typed, after a refusal; undefined before one. */
  typed: ArticleRefusal["values"] | undefined;
  invalid: (field: ArticleField) => true | undefined;
}

/**
 * The article form of the add and edit pages: a multipart form posting to
 * the page (`action`) and, with the pages' script (article-script.ts), to
 * its upload route (`uploadUrl`) with a progress bar. Rendered on the server
 * only: the pages are not hydrated. The page lays out its own fields
 * (children) from the state; the frame around them is the same.
 */
export function ArticleForm({
  kind,
  action,
  uploadUrl,
  submitLabel,
  kept,
  edit,
  publishAt,
  children,
}: {
  kind: "add" | "edit";
  action: string;
  uploadUrl: string;
  submitLabel: string;
  /** A form kept after the session ended, shown filled in until it is saved. */
  kept?: KeptArticle | null;
  /** The edit began from this version (and photo): a save over a newer one is refused. */
  edit?: { version: number; imageKey: string | null; currentHref: string };
  /** The stored publication moment as Warsaw wall time; empty for a draft or a new article. */
  publishAt?: string;
  children: (state: ArticleFormState) => ReactNode;
}) {
  const result = useActionData<ArticleRefusal>();
  const invalid = (field: ArticleField) => (result?.fields.includes(field) ? true : undefined);
  const keptNow = result ? result.kept : kept;
  const conflict = result?.conflict;
  // A browser never refills a file input: sent as a document, a photo the
  // refused form still wants must be chosen again (unless one is kept). The
  // script, which keeps the chosen file, drops this note.
  const photoLost = Boolean(
    result && !keptNow?.photo && result.hadImage && (kind === "add" || result.values.changeImage),
  );
  return (
    // noValidate: the server's message ('Wypełnij wszystkie pola') is the one to see.
    <form
      method="post"
      action={action}
      encType="multipart/form-data"
      className="form article-form"
      noValidate
      data-upload-url={uploadUrl}
    >
      <CsrfInput />
      {keptNow ? <input type="hidden" name={KEPT_PARAM} value={keptNow.key} /> : null}
      {edit ? (
        <>
          <input type="hidden" name="version" value={conflict?.version ?? edit.version} />
          <input type="hidden" name="baseImage" value={(conflict ? conflict.imageKey : edit.imageKey) ?? ""} />
        </>
      ) : null}
      {keptNow && !result ? (
        <p role="status" className="kept-note">
          {keptNow.message}
        </p>
      ) : null}
      <FormError message={result?.error} />
      {conflict && edit ? (
        <ConflictNote
          changed={conflict.changed.map((f) => CHANGED_FIELD_NAMES[f])}
          sameNote="Obecna wersja ma ten sam tytuł, treść i datę co Twoja."
          yoursNote="Twój tekst jest poniżej. Naciśnij „zapisz moją wersję”, aby zapisać go zamiast obecnej wersji, albo"
          currentHref={edit.currentHref}
          current={[
            { label: "Tytuł", value: conflict.current.header },
            { label: "Data", value: conflict.current.date },
            { label: "Treść", value: conflict.current.text, long: true },
          ]}
        />
      ) : null}
      {photoLost ? <p className="field-note">{PHOTO_NOTES.chooseAgain}</p> : null}
      {keptNow?.photo ? <p className="field-note">{PHOTO_NOTES.kept}</p> : null}
      {children({ typed: result?.values ?? kept?.values, invalid })}
      <PublishAtField
        id="article-publish-at"
        defaultValue={result?.values.publishAt ?? kept?.values.publishAt ?? publishAt}
        error={invalid("publishAt") ? result?.error : undefined}
      />
      <PublishButtons label={conflict ? "zapisz moją wersję" : submitLabel} />
    </form>
  );
}

/** The header input, limited as the server limits it. */
export function HeaderField({ defaultValue, invalid }: { defaultValue?: string; invalid?: true }) {
  return (
    <Field
      label="Nagłówek"
      id="article-header"
      name="header"
      defaultValue={defaultValue}
      maxLength={HEADER_MAX}
      required
      aria-invalid={invalid}
    />
  );
}

export function TextField({ defaultValue, invalid }: { defaultValue?: string; invalid?: true }) {
  return (
    <TextAreaField
      label="Treść"
      id="article-text"
      name="text"
      defaultValue={defaultValue}
      required
      aria-invalid={invalid}
    />
  );
}
