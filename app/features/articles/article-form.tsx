import { useActionData } from "@remix-run/react";
import type { ReactNode } from "react";
import { Field, FormError, TextAreaField } from "~/components/forms";
import { CsrfInput } from "~/components/pastor";
import { UploadProgress, useUploadForm } from "~/components/upload-progress";
import type { ArticleRefusal } from "~/features/articles/article-form.server";
import type { ArticleField } from "~/features/articles/articles.server";
import { HEADER_MAX } from "~/features/articles/limits";

/** What the fields of a page need: the values to show and which inputs a refusal is about. */
export interface ArticleFormState {
  /** What was typed, after a refusal; undefined before one. */
  typed: ArticleRefusal["values"] | undefined;
  invalid: (field: ArticleField) => true | undefined;
}

/**
 * The article form of the add and edit pages: a multipart form posting to
 * the page (`action`) and, with JavaScript, to its upload route
 * (`uploadUrl`) with a progress bar. The page lays out its own fields
 * (children) from the state; the frame around them is the same.
 */
export function ArticleForm({
  kind,
  action,
  uploadUrl,
  submitLabel,
  children,
}: {
  kind: "add" | "edit";
  action: string;
  uploadUrl: string;
  submitLabel: string;
  children: (state: ArticleFormState) => ReactNode;
}) {
  const upload = useUploadForm<ArticleRefusal>(uploadUrl);
  const posted = useActionData<ArticleRefusal>();
  const result = upload.data ?? posted;
  const invalid = (field: ArticleField) => (result?.fields.includes(field) ? true : undefined);
  // A browser never refills a file input: sent without JavaScript, a photo
  // the refused form still wants must be chosen again.
  const photoLost = Boolean(posted && !upload.data && posted.hadImage && (kind === "add" || posted.values.changeImage));
  return (
    // noValidate: the server's message ('Wypełnij wszystkie pola') is the one to see.
    <form
      method="post"
      action={action}
      encType="multipart/form-data"
      className="form article-form"
      noValidate
      onSubmit={upload.onSubmit}
    >
      <CsrfInput />
      <FormError message={upload.failure ?? result?.error} />
      {photoLost ? (
        <p className="field-note">Wybierz zdjęcie ponownie – przeglądarka nie zachowuje wybranego pliku.</p>
      ) : null}
      {children({ typed: result?.values, invalid })}
      <UploadProgress upload={upload} />
      <button type="submit" disabled={upload.busy} aria-busy={upload.busy || undefined}>
        {submitLabel}
      </button>
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
