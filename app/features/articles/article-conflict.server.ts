// The version check of an edit: a save over a newer version is refused, and
// the refusal says which fields differ from what the pastor sent.
import { articles } from "~/services/schema";
import { ARTICLE_MESSAGES } from "~/features/articles/messages";
import type { ArticleField, SaveResult } from "~/features/articles/save-result";

/** The columns the check compares, selected before and again under the row lock. */
export const conflictColumns = {
  header: articles.header,
  text: articles.text,
  date: articles.date,
  imageKey: articles.imageKey,
  version: articles.version,
};
export type ConflictRow = { header: string; text: string; date: string; imageKey: string | null; version: number };

/** What the edit sent, compared with the stored row. */
export type SentEdit = { header: string; text: string; date: string; baseImageKey: string | null };

/** A version number as the form sends it, or null when none was sent. */
export function versionOf(value: unknown): number | null {
  const n =
    typeof value === "number" ? value : typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) ? n : null;
}

/** The refusal of a save over a newer version: nothing was written; what differs from the text sent. */
export function conflictWith(row: ConflictRow, sent: SentEdit): Extract<SaveResult, { status: 409 }> {
  const changed: ArticleField[] = [];
  if (row.header !== sent.header) changed.push("header");
  if (row.text !== sent.text) changed.push("text");
  if (sent.date && row.date !== sent.date) changed.push("date");
  if (sent.baseImageKey !== null && row.imageKey !== sent.baseImageKey) changed.push("image");
  return {
    ok: false,
    status: 409,
    message: ARTICLE_MESSAGES.conflict,
    fields: [],
    conflict: {
      version: row.version,
      changed,
      current: { header: row.header, text: row.text, date: row.date },
      imageKey: row.imageKey,
    },
  };
}
