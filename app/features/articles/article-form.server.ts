// One post of the article form (add or edit), whichever way it came: the
// page's own action (a plain form post) or its upload route (the script with
// a progress bar). Both call submitArticleForm and only word the answer
// differently (app/http/form-reply.server.ts).
import { createArticle, updateArticle } from "~/features/articles/article-writes.server";
import type { ArticleConflict, ArticleField } from "~/features/articles/save-result";
import type { SessionUser } from "~/features/auth/auth.server";
import { dropKeptForm, getKeptForm, keptFormView, keptPhotoBytes } from "~/features/kept-forms/kept-forms.server";
import { KEPT_PARAM, type KeptFormView } from "~/features/kept-forms/messages";
import type { FormOutcome } from "~/http/form-reply.server";
import type { UploadResult } from "~/services/upload.server";
import { PASTOR_ARTICLES_PATH, articlePreviewPath } from "~/lib/paths";

export type ArticleTarget = { kind: "add" } | { kind: "edit"; id: string };

/** A refusal as the form shows it: one message, the inputs it is about, and what was typed. */
export interface ArticleRefusal {
  error: string;
  fields: ArticleField[];
  values: { header: string; text: string; date: string; changeImage: boolean; publishAt: string };
  /** A photo was sent: without JavaScript the pastor must choose it again. */
  hadImage: boolean;
  /** The article changed since the edit began: nothing saved; the form now carries the newer version. */
  conflict?: ArticleConflict;
  /** The kept form this post came from, still kept (its photo is used by the next save). */
  kept?: KeptFormView;
}

/** One photo and a few text fields; the photo may be as big as a phone makes it. The routes read the post with these. */
export const ARTICLE_UPLOAD_LIMITS = { maxFiles: 1, maxFields: 20 };

/** What the pastor typed, sent back with a refusal so the form keeps it. */
function typed(fields: URLSearchParams): ArticleRefusal["values"] {
  return {
    header: fields.get("header") ?? "",
    text: fields.get("text") ?? "",
    date: fields.get("date") ?? "",
    changeImage: fields.get("changeImage") === "1",
    publishAt: fields.get("publishAt") ?? "",
  };
}

/** A kept form of this kind, as the page shows it: the message, its key, and what was typed. */
export async function keptArticleForm(
  keptId: string | null,
  user: Pick<SessionUser, "email">,
  kind: ArticleTarget["kind"],
): Promise<(KeptFormView & { values: ArticleRefusal["values"]; fields: Record<string, string> }) | null> {
  const kept = await getKeptForm({
    id: keptId,
    user,
    form: kind === "add" ? "article-add" : "article-edit",
  });
  if (!kept) return null;
  return { ...keptFormView(kept), values: typed(new URLSearchParams(kept.fields)), fields: kept.fields };
}

/**
 * Saves the article the multipart form carried (as the route read it, with
 * ARTICLE_UPLOAD_LIMITS), and says what came of it. The caller has checked
 * the session.
 */
export async function submitArticleForm(
  upload: UploadResult,
  target: ArticleTarget,
  // Whose kept form may be used, and who the history names.
  user: Pick<SessionUser, "id" | "email">,
): Promise<FormOutcome<ArticleRefusal>> {
  if (!upload.ok) {
    return {
      ok: false,
      status: upload.status,
      refused: { error: upload.message, fields: [], values: typed(upload.fields), hadImage: true },
    };
  }
  const file = upload.files.find((f) => f.field === "image");
  // A form restored after sign-in: its kept photo stands in for one not chosen again.
  const kept = await getKeptForm({
    id: upload.fields.get(KEPT_PARAM),
    user,
    form: target.kind === "add" ? "article-add" : "article-edit",
  });
  const keptBytes = !file && kept ? await keptPhotoBytes(kept) : null;
  const fields = {
    header: upload.fields.get("header"),
    text: upload.fields.get("text"),
    date: upload.fields.get("date"),
    image: file
      ? { input: file.path, name: file.name }
      : keptBytes
        ? { input: keptBytes, name: kept?.photo?.name ?? "" }
        : null,
    // The button pressed: the publish button, or 'zapisz jako szkic' (intent=draft).
    intent: upload.fields.get("intent"),
    publishAt: upload.fields.get("publishAt"),
  };
  const result =
    target.kind === "add"
      ? await createArticle(fields, { actor: user })
      : await updateArticle(
          {
            ...fields,
            id: target.id,
            changeImage: upload.fields.get("changeImage"),
            baseVersion: upload.fields.get("version"),
            baseImageKey: upload.fields.get("baseImage"),
          },
          { actor: user },
        );
  if (!result.ok) {
    return {
      ok: false,
      status: result.status,
      refused: {
        error: result.message,
        fields: result.fields ?? [],
        values: typed(upload.fields),
        hadImage: Boolean(file),
        ...("conflict" in result ? { conflict: result.conflict } : {}),
        ...(kept ? { kept: keptFormView(kept) } : {}),
      },
    };
  }
  if (kept) await dropKeptForm({ id: kept.id, user });
  // A draft is seen only in the preview, so that is where its save leads.
  if (result.publication.state === "draft") {
    return { ok: true, redirectTo: articlePreviewPath(result.id), flash: "Zapisano szkic artykułu." };
  }
  const flash =
    result.publication.state === "scheduled"
      ? "Zaplanowano publikację artykułu."
      : target.kind === "add"
        ? "Dodano artykuł."
        : "Zapisano zmiany.";
  return { ok: true, redirectTo: PASTOR_ARTICLES_PATH, flash };
}
