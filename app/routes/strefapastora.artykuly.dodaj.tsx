import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/features/auth/auth.server";
import { Field } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { pageReply } from "~/http/form-reply.server";
import { submitArticleForm } from "~/features/articles/article-form.server";
import { ArticleForm, HeaderField, TextField } from "~/features/articles/article-form";
import { ADD_ARTICLE_PATH, ADD_ARTICLE_UPLOAD_PATH, PASTOR_ARTICLES_PATH } from "~/lib/paths";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { csrf: user.csrf };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  return pageReply(await submitArticleForm(request, { kind: "add" }));
}

export default function AddArticle() {
  return (
    <section className="page pastor">
      <BackLink to={PASTOR_ARTICLES_PATH} />
      <h1>Nowy artykuł</h1>
      <ArticleForm kind="add" action={ADD_ARTICLE_PATH} uploadUrl={ADD_ARTICLE_UPLOAD_PATH} submitLabel="dodaj">
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
