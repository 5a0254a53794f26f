// The article form's values: how typed text is cleaned, the one schema for
// adding and editing, and how a failed parse becomes the form's one message.
import { z } from "zod";
import { isCalendarDate } from "~/lib/text";
import { HEADER_MAX, TEXT_MAX } from "~/features/articles/limits";
import { ARTICLE_MESSAGES } from "~/features/articles/messages";
import type { ArticleField, SaveRefusal } from "~/features/articles/save-result";

// Control characters other than tab and newline never belong in an article
// (a paste from a word processor may bring some); browsers send line
// breaks as CRLF. NUL (which Postgres refuses) and U+FFFD (what bytes that
// are not UTF-8 decode to) mean the text was not typed: refused, not stored.
const CONTROL = /[\u0001-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
const NOT_TYPED = /[\u0000\uFFFD]/;

/** A form value as stored: text only, `\n` line breaks, no stray control characters, trimmed. */
export function cleanFormText(value: unknown): string {
  if (typeof value !== "string") return "";
  return value.replace(/\r\n?/g, "\n").replace(CONTROL, "").trim();
}

const formText = z
  .unknown()
  .transform(cleanFormText)
  .refine((v) => !NOT_TYPED.test(v), ARTICLE_MESSAGES.badCharacters);
const isoDate = z.string().refine(isCalendarDate, ARTICLE_MESSAGES.badDate);

/**
 * The article form, one schema for adding and editing. Adding needs every
 * field ('Wypełnij wszystkie pola'; the photo is checked beside it). An edit
 * says 'Tytuł i treść nie mogą być puste!' and may leave the date empty to
 * keep the stored one: a date input cannot show a legacy date such as
 * '12 września 2020, sobota', and such a date must survive an edit that does
 * not set a new one.
 */
export function articleFormSchema(kind: "add" | "edit") {
  const required = kind === "add" ? ARTICLE_MESSAGES.missing : ARTICLE_MESSAGES.blankEdit;
  return z.object({
    header: formText.pipe(z.string().min(1, required).max(HEADER_MAX, ARTICLE_MESSAGES.headerTooLong)),
    text: formText.pipe(z.string().min(1, required).max(TEXT_MAX, ARTICLE_MESSAGES.textTooLong)),
    date:
      kind === "add"
        ? formText.pipe(z.string().min(1, required).pipe(isoDate))
        : formText.pipe(z.union([z.literal(""), isoDate])),
    changeImage: z.unknown().transform((v) => v === true || v === "1" || v === "on"),
  });
}

const isArticleField = (v: unknown): v is ArticleField =>
  v === "header" || v === "text" || v === "date" || v === "image" || v === "publishAt";

/**
 * One message for the whole form, as the original's alerts; a missing field
 * outranks a malformed one. `fields` names every input the message is about.
 */
export function refusal(error: z.ZodError | null, preferred: string, extra: ArticleField[] = []): SaveRefusal {
  const issues = error?.issues ?? [];
  const message = issues.some((i) => i.message === preferred) || !issues.length ? preferred : issues[0].message;
  const fields = [
    ...issues.filter((i) => i.message === message).map((i) => i.path[0]),
    ...(message === preferred ? extra : []),
  ];
  return { ok: false, status: 400, message, fields: fields.filter(isArticleField) };
}
