import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { Field, FormError, TextAreaField } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { CsrfInput } from "~/components/pastor";
import { UploadProgress, useUploadForm } from "~/components/upload-progress";
import { redirectWithFlash } from "~/http/flash.server";
import { createArticle } from "~/features/articles/articles.server";
import { HEADER_MAX } from "~/features/articles/limits";
import { parseUpload } from "~/services/upload.server";
import { ADD_ARTICLE_PATH, PASTOR_ARTICLES_PATH } from "~/lib/paths";

// One photo and a few text fields; the photo may be as big as a phone makes it.
const UPLOAD_LIMITS = { maxFiles: 1, maxFields: 20 };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ csrf: user.csrf });
}

/** What the pastor typed, sent back with a refusal so the form keeps it. */
function typed(fields: URLSearchParams) {
  return { header: fields.get("header") ?? "", text: fields.get("text") ?? "", date: fields.get("date") ?? "" };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const upload = await parseUpload(request, UPLOAD_LIMITS);
  if (!upload.ok) {
    return json(
      { error: upload.message, fields: [] as string[], values: typed(upload.fields), hadImage: true },
      { status: upload.status },
    );
  }
  try {
    const file = upload.files.find((f) => f.field === "image");
    const result = await createArticle({
      header: upload.fields.get("header"),
      text: upload.fields.get("text"),
      date: upload.fields.get("date"),
      image: file ? { input: file.path, name: file.name } : null,
    });
    if (!result.ok) {
      return json(
        {
          error: result.message,
          fields: (result.fields ?? []) as string[],
          values: typed(upload.fields),
          hadImage: Boolean(file),
        },
        { status: result.status },
      );
    }
    return redirectWithFlash(PASTOR_ARTICLES_PATH, "Dodano artykuł.");
  } finally {
    await upload.cleanup();
  }
}

export default function AddArticle() {
  const upload = useUploadForm<typeof action>();
  const posted = useActionData<typeof action>();
  const result = upload.data ?? posted;
  const values = result?.values;
  const invalid = (field: string) => (result?.fields.includes(field) ? true : undefined);
  return (
    <section className="page pastor">
      <BackLink to={PASTOR_ARTICLES_PATH} />
      <h1>Nowy artykuł</h1>
      {/* noValidate: the server's message ('Wypełnij wszystkie pola') is the one to see. */}
      <form
        method="post"
        action={ADD_ARTICLE_PATH}
        encType="multipart/form-data"
        className="form article-form"
        noValidate
        onSubmit={upload.onSubmit}
      >
        <CsrfInput />
        <FormError message={upload.failure ?? result?.error} />
        {/* A browser never refills a file input; sent without JavaScript, the photo must be chosen again. */}
        {posted && !upload.data && posted.hadImage ? (
          <p className="field-note">Wybierz zdjęcie ponownie – przeglądarka nie zachowuje wybranego pliku.</p>
        ) : null}
        <Field
          label="Zdjęcie"
          id="article-image"
          name="image"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          required
          aria-invalid={invalid("image")}
        />
        <Field
          label="Nagłówek"
          id="article-header"
          name="header"
          defaultValue={values?.header}
          maxLength={HEADER_MAX}
          required
          aria-invalid={invalid("header")}
        />
        <TextAreaField
          label="Treść"
          id="article-text"
          name="text"
          defaultValue={values?.text}
          required
          aria-invalid={invalid("text")}
        />
        <Field
          label="Data"
          id="article-date"
          name="date"
          type="date"
          defaultValue={values?.date}
          required
          aria-invalid={invalid("date")}
        />
        <UploadProgress upload={upload} />
        <button type="submit" disabled={upload.busy} aria-busy={upload.busy || undefined}>
          dodaj
        </button>
      </form>
    </section>
  );
}
