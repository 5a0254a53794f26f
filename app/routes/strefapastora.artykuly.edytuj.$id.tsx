import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { requireUserOrKeep } from "~/features/kept-forms/kept-forms.server";
import { Field } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { Photo } from "~/components/picture";
import { pageReply } from "~/http/form-reply.server";
import { ARTICLE_UPLOAD_LIMITS, keptArticleForm, submitArticleForm } from "~/features/articles/article-form.server";
import { ArticleForm, HeaderField, TextField } from "~/features/articles/article-form";
import { getArticle } from "~/features/articles/articles.server";
import { instantToWallTime } from "~/features/publishing/publication.server";
import { isCalendarDate } from "~/lib/text";
import { PASTOR_ARTICLES_PATH, editArticlePath, editArticleUploadPath } from "~/lib/paths";
import { withUpload } from "~/http/upload-request.server";
import { KEPT_PARAM } from "~/features/kept-forms/messages";
import type { RouteHandle } from "~/root";
import { documentOnly } from "~/components/document-only";

// Not hydrated: the form's own script (app/features/articles/article-script.ts)
// adds the photo's shrinking and the progress bar.
export const handle: RouteHandle = { hydrate: false, script: "article-form" };
export const clientLoader = documentOnly;

const PREVIEW_HEIGHT = 150;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const article = await getArticle(params.id ?? "", { withUnpublished: true });
  if (!article) return data({ csrf: user.csrf, article: null, kept: null }, { status: 404 });
  const { id, header, text, date, image, publication } = article;
  // A date input shows only YYYY-MM-DD; an older free-text date is shown
  // beside it and kept when no new date is chosen.
  const iso = isCalendarDate(date);
  const kept = await keptArticleForm(new URL(request.url).searchParams.get(KEPT_PARAM), user, "edit");
  // A kept edit still counts from the version it began from: what changed meanwhile is not overwritten unseen.
  const keptVersion = Number(kept?.fields.version);
  return {
    csrf: user.csrf,
    article: {
      id,
      header,
      text,
      image,
      date: iso ? date : "",
      legacyDate: iso ? null : date,
      version: kept && Number.isSafeInteger(keptVersion) ? keptVersion : article.version,
      imageKey: kept && "baseImage" in kept.fields ? kept.fields.baseImage || null : article.imageKey,
      publishAt: publication.at ? instantToWallTime(new Date(publication.at)) : "",
    },
    kept: kept ? { key: kept.key, photo: kept.photo, message: kept.message, values: kept.values } : null,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  // A post after the session ended is kept, and brought back after sign-in.
  const user = await requireUserOrKeep(request, { form: "article-edit", path: editArticlePath(params.id ?? "") });
  return withUpload(request, ARTICLE_UPLOAD_LIMITS, async (upload) =>
    pageReply(await submitArticleForm(upload, { kind: "edit", id: params.id ?? "" }, user)),
  );
}

export default function EditArticle() {
  const { article, kept } = useLoaderData<typeof loader>();
  if (!article) {
    return (
      <div className="page article">
        {/* The page's one heading, so a screen reader lands on the message. */}
        <h1 className="empty">nie ma takiego dokumentu</h1>
        <BackLink to={PASTOR_ARTICLES_PATH} />
      </div>
    );
  }
  const image = article.image;
  return (
    <section className="page pastor">
      <BackLink to={PASTOR_ARTICLES_PATH} />
      <h1>Edycja artykułu</h1>
      <ArticleForm
        kind="edit"
        action={editArticlePath(article.id)}
        uploadUrl={editArticleUploadPath(article.id)}
        submitLabel="zatwierdź"
        kept={kept}
        edit={{ version: article.version, imageKey: article.imageKey, currentHref: editArticlePath(article.id) }}
        publishAt={article.publishAt}
      >
        {({ typed, invalid }) => {
          const values = typed ?? { ...article, changeImage: false };
          return (
            <>
              <HeaderField defaultValue={values.header} invalid={invalid("header")} />
              <Field
                label="Data"
                id="article-date"
                name="date"
                type="date"
                defaultValue={values.date}
                aria-invalid={invalid("date")}
                aria-describedby={article.legacyDate ? "article-date-note" : undefined}
              />
              {article.legacyDate ? (
                <p className="field-note" id="article-date-note">
                  Obecna data: „{article.legacyDate}”. Zostanie zachowana, jeśli nie wybierzesz nowej.
                </p>
              ) : null}
              <TextField defaultValue={values.text} invalid={invalid("text")} />
              {/* A native checkbox revealing the fields through CSS (:checked ~), so it works without JavaScript. */}
              <div className="change-image">
                <input
                  type="checkbox"
                  id="article-change-image"
                  name="changeImage"
                  value="1"
                  className="reveal-toggle"
                  defaultChecked={values.changeImage}
                  aria-controls="article-new-image"
                />
                <label htmlFor="article-change-image">Zmień zdjęcie</label>
                <div className="reveal" id="article-new-image">
                  {image ? (
                    <Photo
                      className="current-image"
                      image={image}
                      alt="Obecne zdjęcie"
                      sizes={`${Math.ceil((PREVIEW_HEIGHT * image.width) / image.height)}px`}
                    />
                  ) : null}
                  <Field
                    label="Nowe zdjęcie"
                    id="article-image"
                    name="image"
                    type="file"
                    accept="image/jpeg,image/png,image/webp"
                    aria-invalid={invalid("image")}
                  />
                </div>
              </div>
            </>
          );
        }}
      </ArticleForm>
    </section>
  );
}
