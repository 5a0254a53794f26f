import type { ActionFunctionArgs, HeadersFunction, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { Field, FormError, TextAreaField } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { CsrfInput } from "~/components/pastor";
import { UploadProgress, useUploadForm } from "~/components/upload-progress";
import { pageReply } from "~/http/form-reply.server";
import { type ArticleRefusal, submitArticleForm } from "~/features/articles/article-form.server";
import type { ArticleField } from "~/features/articles/articles.server";
import { HEADER_MAX } from "~/features/articles/limits";
import { ADD_ARTICLE_PATH, ADD_ARTICLE_UPLOAD_PATH, PASTOR_ARTICLES_PATH } from "~/lib/paths";
import pastorStyles from "~/styles/pastor.css";

export const handle = { hydrate: true };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: pastorStyles }];

export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { csrf: user.csrf };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  return pageReply(await submitArticleForm(request, { kind: "add" }));
}

export default function AddArticle() {
  const upload = useUploadForm<ArticleRefusal>(ADD_ARTICLE_UPLOAD_PATH);
  const posted = useActionData<typeof action>();
  const result = upload.data ?? posted;
  const values = result?.values;
  const invalid = (field: ArticleField) => (result?.fields.includes(field) ? true : undefined);
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
