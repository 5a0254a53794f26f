// What a save or a delete of an article answers. Types only, so the form's
// component may name them without pulling server code into the browser.
import type { Publication } from "~/features/publishing/publication";

export type ArticleField = "header" | "text" | "date" | "image" | "publishAt";

/** A save refused because the article changed since the edit began: the version now stored and how it differs. */
export interface ArticleConflict {
  version: number;
  /** The fields where the stored version differs from what was sent. */
  changed: ArticleField[];
  current: { header: string; text: string; date: string };
  /** The stored photo's key, which the form sends back with its next save. */
  imageKey: string | null;
}

export type SaveResult =
  | { ok: true; id: string; publication: Publication }
  | { ok: false; status: 400 | 404 | 413 | 500 | 503; message: string; fields?: ArticleField[] }
  | { ok: false; status: 409; message: string; fields: ArticleField[]; conflict: ArticleConflict };

/** A refused save other than a conflict. */
export type SaveRefusal = Extract<SaveResult, { ok: false }>;

export type DeleteResult = { ok: true; header: string } | { ok: false; status: 404; message: string };
