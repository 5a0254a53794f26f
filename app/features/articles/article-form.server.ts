// One post of the article form (add or edit), whichever way it came: the
// page's own action (a plain form post) or its upload route (the script with
// a progress bar). Both call submitArticleForm and only word the answer
// differently (app/http/form-reply.server.ts).
import { type ArticleField, createArticle, updateArticle } from "~/features/articles/articles.server";
import type { FormOutcome } from "~/http/form-reply.server";
import { parseUpload } from "~/services/upload.server";
import { PASTOR_ARTICLES_PATH } from "~/lib/paths";

export type ArticleTarget = { kind: "add" } | { kind: "edit"; id: string };

/** A refusal as the form shows it: one message, the inputs it is about, and what was typed. */
export interface ArticleRefusal {
  error: string;
  fields: ArticleField[];
  values: { header: string; text: string; date: string; changeImage: boolean };
  /** A photo was sent: without JavaScript the pastor must choose it again. */
  hadImage: boolean;
}

// One photo and a few text fields; the photo may be as big as a phone makes it.
const UPLOAD_LIMITS = { maxFiles: 1, maxFields: 20 };

/** What the pastor typed, sent back with a refusal so the form keeps it. */
function typed(fields: URLSearchParams): ArticleRefusal["values"] {
  return {
    header: fields.get("header") ?? "",
    text: fields.get("text") ?? "",
    date: fields.get("date") ?? "",
    changeImage: fields.get("changeImage") === "1",
  };
}

/** Reads the multipart form, saves the article, and says what came of it. The caller has checked the session. */
export async function submitArticleForm(request: Request, target: ArticleTarget): Promise<FormOutcome<ArticleRefusal>> {
  const upload = await parseUpload(request, UPLOAD_LIMITS);
  if (!upload.ok) {
    return {
      ok: false,
      status: upload.status,
      refused: { error: upload.message, fields: [], values: typed(upload.fields), hadImage: true },
    };
  }
  try {
    const file = upload.files.find((f) => f.field === "image");
    const fields = {
      header: upload.fields.get("header"),
      text: upload.fields.get("text"),
      date: upload.fields.get("date"),
      image: file ? { input: file.path, name: file.name } : null,
    };
    const result =
      target.kind === "add"
        ? await createArticle(fields)
        : await updateArticle({ ...fields, id: target.id, changeImage: upload.fields.get("changeImage") });
    if (!result.ok) {
      return {
        ok: false,
        status: result.status,
        refused: {
          error: result.message,
          fields: result.fields ?? [],
          values: typed(upload.fields),
          hadImage: Boolean(file),
        },
      };
    }
    const flash = target.kind === "add" ? "Dodano artykuł." : "Zapisano zmiany.";
    return { ok: true, redirectTo: PASTOR_ARTICLES_PATH, flash };
  } finally {
    await upload.cleanup();
  }
}
