import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { requireUserOrKeep } from "~/features/kept-forms/kept-forms.server";
import { Field } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { pageReply } from "~/http/form-reply.server";
import { ARTICLE_UPLOAD_LIMITS, keptArticleForm, submitArticleForm } from "~/features/articles/article-form.server";
import { ArticleForm, HeaderField, TextField } from "~/features/articles/article-form";
import { ADD_ARTICLE_PATH, ADD_ARTICLE_UPLOAD_PATH, PASTOR_ARTICLES_PATH } from "~/lib/paths";
import { withUpload } from "~/http/upload-request.server";
import { KEPT_PARAM } from "~/features/kept-forms/messages";
import type { RouteHandle } from "~/root";
import { documentOnly } from "~/components/document-only";

// Not hydrated: the form's own script (app/features/articles/article-script.ts)
// adds the photo's shrinking and the progress bar.
export const handle: RouteHandle = { hydrate: false, script: "article-form" };
export const clientLoader = documentOnly;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const kept = await keptArticleForm(new URL(request.url).searchParams.get(KEPT_PARAM), user, "add");
  return {
    csrf: user.csrf,
    kept: kept ? { key: kept.key, photo: kept.photo, message: kept.message, values: kept.values } : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  // A post after the session ended is kept, and brought back after sign-in.
  const user = await requireUserOrKeep(request, { form: "article-add", path: ADD_ARTICLE_PATH });
  return withUpload(request, ARTICLE_UPLOAD_LIMITS, async (upload) =>
    pageReply(await submitArticleForm(upload, { kind: "add" }, user)),
  );
}

export default function AddArticle() {
  const { kept } = useLoaderData<typeof loader>();
  return (
    <section className="page pastor">
      <BackLink to={PASTOR_ARTICLES_PATH} />
      <h1>Nowy artykuł</h1>
      <ArticleForm
        kind="add"
        action={ADD_ARTICLE_PATH}
        uploadUrl={ADD_ARTICLE_UPLOAD_PATH}
        submitLabel="dodaj"
        kept={kept}
      >
        {({ typed, invalid }) => (
          <>
            <Field
              label="Zdjęcie"
              id="article-image"
              name="image"
              type="file"
              accept="image/jpeg,image/png,image/webp"
              required
              aria-invalid={invalid("image")}
            />
            <HeaderField defaultValue={typed?.header} invalid={invalid("header")} />
            <TextField defaultValue={typed?.text} invalid={invalid("text")} />
            <Field
              label="Data"
              id="article-date"
              name="date"
              type="date"
              defaultValue={typed?.date}
              required
              aria-invalid={invalid("date")}
            />
          </>
        )}
      </ArticleForm>
    </section>
  );
}
