import { isCalendarDate, shorten } from "~/lib/text";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { clock } from "~/services/clock.server";
import { articles } from "~/services/schema";
import { contentChanged } from "~/services/content-version.server";
import { DatabaseUnavailableError, withDb } from "~/services/db.server";
import {
  type ImageInput,
  ImageRejected,
  type ImageView,
  type ShareImage,
  type StoredImage,
  deleteImage,
  imageView,
  shareImage,
  storeImage,
} from "~/services/images.server";
import { logger } from "~/services/logger.server";
import { type Storage, storage } from "~/services/storage.server";
import { HEADER_MAX, TEXT_MAX } from "~/features/articles/limits";
import { ARTICLE_MESSAGES } from "~/features/articles/messages";
import { type Actor, recordActivity } from "~/features/activity/activity.server";

/** Articles not in the bin: every page but the bin shows only these. */
export const liveArticle = isNull(articles.deletedAt);
import type { Publication } from "~/features/publishing/publication";
import {
  articleIsPublic,
  publicationOf,
  publicationChange,
  publishAtFor,
  readPublishChoice,
} from "~/features/publishing/publication.server";

export const EXCERPT_LENGTH = 180;

export interface ArticleCard {
  id: string;
  header: string;
  date: string;
  excerpt: string;
  image: ImageView | null;
  publication: Publication;
}

export interface ArticleDetail {
  id: string;
  header: string;
  text: string;
  date: string;
  image: ImageView | null;
  /** Bumped by every save; the edit form sends back the one it was opened with. */
  version: number;
  /** The stored photo's key (the edit form sends it back to tell whether the photo changed meanwhile). */
  imageKey: string | null;
  /** The photo for link previews on social sites. */
  share: ShareImage | null;
  publication: Publication;
}

function toImage(row: { imageKey: string | null; imageWidth: number | null; imageHeight: number | null }) {
  return row.imageKey && row.imageWidth && row.imageHeight
    ? imageView({ key: row.imageKey, width: row.imageWidth, height: row.imageHeight })
    : null;
}

/** Cards on one page of the public news list. */
export const NEWS_PAGE_SIZE = 20;

/**
 * News cards, newest first, optionally one page of them; the excerpt is cut
 * in the database so whole bodies never travel. Only what visitors may see
 * now, unless `withUnpublished` (the pastor's list: drafts and scheduled too).
 */
export async function listArticleCards({
  limit,
  offset = 0,
  withUnpublished = false,
}: { limit?: number; offset?: number; withUnpublished?: boolean } = {}): Promise<ArticleCard[]> {
  const now = clock.now();
  const rows = await withDb((db) => {
    const query = db
      .select({
        id: articles.id,
        header: articles.header,
        date: articles.date,
        excerpt: sql<string>`left(${articles.text}, ${EXCERPT_LENGTH + 1})`,
        imageKey: articles.imageKey,
        imageWidth: articles.imageWidth,
        imageHeight: articles.imageHeight,
        publishAt: articles.publishAt,
      })
      .from(articles)
      .where(withUnpublished ? liveArticle : and(liveArticle, articleIsPublic(now)))
      .orderBy(desc(articles.date), desc(articles.id))
      .offset(offset);
    return limit === undefined ? query : query.limit(limit);
  });
  return rows.map((r) => ({
    id: r.id,
    header: r.header,
    date: r.date,
    excerpt: excerpt(r.excerpt),
    image: toImage(r),
    publication: publicationOf(r.publishAt, now),
  }));
}

/** One page (from 1) of the public news list, and whether older news follow. */
export async function newsPage(page: number): Promise<{ cards: ArticleCard[]; hasOlder: boolean }> {
  // One row more than shown tells whether there is a next page.
  const rows = await listArticleCards({ limit: NEWS_PAGE_SIZE + 1, offset: (page - 1) * NEWS_PAGE_SIZE });
  return { cards: rows.slice(0, NEWS_PAGE_SIZE), hasOlder: rows.length > NEWS_PAGE_SIZE };
}

/** A news card's text: EXCERPT_LENGTH characters at most. */
export function excerpt(text: string): string {
  return shorten(text, EXCERPT_LENGTH);
}

/** Ids are creation times in ms; anything else cannot name an article. */
export function isArticleId(id: string): boolean {
  return /^[0-9A-Za-z_-]{1,64}$/.test(id);
}

/**
 * An article as its page shows it; null when there is none, or (unless
 * `withUnpublished`: the pastor's pages) when visitors may not see it yet.
 */
export async function getArticle(
  id: string,
  { withUnpublished = false }: { withUnpublished?: boolean } = {},
): Promise<ArticleDetail | null> {
  if (!isArticleId(id)) return null;
  const now = clock.now();
  const [row] = await withDb((db) =>
    db
      .select({
        id: articles.id,
        header: articles.header,
        text: articles.text,
        date: articles.date,
        imageKey: articles.imageKey,
        imageWidth: articles.imageWidth,
        imageHeight: articles.imageHeight,
        version: articles.version,
        publishAt: articles.publishAt,
      })
      .from(articles)
      .where(and(eq(articles.id, id), liveArticle, withUnpublished ? undefined : articleIsPublic(now)))
      .limit(1),
  );
  if (!row) return null;
  const stored = storedImageOf(row);
  return {
    id: row.id,
    header: row.header,
    text: row.text,
    date: row.date,
    image: toImage(row),
    share: stored ? shareImage(stored) : null,
    version: row.version,
    imageKey: row.imageKey,
    publication: publicationOf(row.publishAt, now),
  };
}

// ---------------------------------------------------------------------------
// Writing articles (the pastor area). Routes only read the request and call
// these functions: the original site's rules (every field of a new article
// required; a photo replaced only when 'Zmień zdjęcie' is ticked) and the
// order of storage and database writes live here, so tests exercise them
// without HTTP.
// ---------------------------------------------------------------------------

/** Storage folder of article photos (the original split root/'images/' by add/edit; one folder is enough). */
export const ARTICLE_IMAGE_FOLDER = "aktualnosci";

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

export type DeleteResult = { ok: true; header: string } | { ok: false; status: 404; message: string };

/** A photo sent with the form: a temporary file (or bytes) and the name the browser gave it. */
export interface ArticleImageUpload {
  input: ImageInput;
  name: string;
}

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

const addSchema = articleFormSchema("add");
const editSchema = articleFormSchema("edit");

const isArticleField = (v: unknown): v is ArticleField =>
  v === "header" || v === "text" || v === "date" || v === "image" || v === "publishAt";

/**
 * One message for the whole form, as the original's alerts; a missing field
 * outranks a malformed one. `fields` names every input the message is about.
 */
function refusal(
  error: z.ZodError | null,
  preferred: string,
  extra: ArticleField[] = [],
): Extract<SaveResult, { ok: false }> {
  const issues = error?.issues ?? [];
  const message = issues.some((i) => i.message === preferred) || !issues.length ? preferred : issues[0].message;
  const fields = [
    ...issues.filter((i) => i.message === message).map((i) => i.path[0]),
    ...(message === preferred ? extra : []),
  ];
  return { ok: false, status: 400, message, fields: fields.filter(isArticleField) };
}

/** Stores the photo; a refusal or a storage failure becomes the message the form shows. */
async function storeArticleImage(
  upload: ArticleImageUpload,
  store: Storage,
): Promise<{ ok: true; image: StoredImage } | Extract<SaveResult, { ok: false }>> {
  try {
    return { ok: true, image: await storeImage(upload.input, upload.name, ARTICLE_IMAGE_FOLDER, store) };
  } catch (error) {
    if (error instanceof ImageRejected) {
      return { ok: false, status: error.reason === "tooLarge" ? 413 : 400, message: error.message, fields: ["image"] };
    }
    logger.error({ err: error }, "storing an article photo failed");
    return { ok: false, status: 503, message: ARTICLE_MESSAGES.storageFailed, fields: ["image"] };
  }
}

/** A failed row write: the database is unreachable or refused it. */
function rowWriteFailed(error: unknown): Extract<SaveResult, { ok: false }> {
  if (error instanceof DatabaseUnavailableError) {
    return { ok: false, status: 503, message: ARTICLE_MESSAGES.saveFailed };
  }
  logger.error({ err: error }, "writing an article failed");
  return { ok: false, status: 500, message: ARTICLE_MESSAGES.saveFailed };
}

/**
 * Removes a photo's files once no article points to them any more. Runs
 * after the database change has committed; a failure leaves unused files
 * behind (logged), never a row without its files.
 */
async function removeImageFiles(image: StoredImage, store: Storage) {
  try {
    const [stillUsed] = await withDb((db) =>
      db.select({ id: articles.id }).from(articles).where(eq(articles.imageKey, image.key)).limit(1),
    );
    if (stillUsed) return;
    await deleteImage(image, store);
  } catch (error) {
    logger.error({ err: error, key: image.key }, "removing an article photo failed");
  }
}

/** Removes a photo stored for a save that did not happen (no row can point to its new key). */
async function discardImage(image: StoredImage, store: Storage) {
  try {
    await deleteImage(image, store);
  } catch (error) {
    logger.error({ err: error, key: image.key }, "removing an unsaved article photo failed");
  }
}

const storedImageOf = (row: { imageKey: string | null; imageWidth: number | null; imageHeight: number | null }) =>
  row.imageKey && row.imageWidth && row.imageHeight
    ? { key: row.imageKey, width: row.imageWidth, height: row.imageHeight }
    : null;

// Tries per save before giving up on finding a free id; only many saves in
// the same few milliseconds would need more than one.
const MAX_ID_TRIES = 1000;

/**
 * Adds an article. The photo is stored first, then the row is written with
 * id = the creation time in ms (the next free millisecond when another save
 * took it). If the row cannot be written, the stored files are removed.
 */
export async function createArticle(
  input: {
    header?: unknown;
    text?: unknown;
    date?: unknown;
    image?: ArticleImageUpload | null;
    /** "draft" for 'zapisz jako szkic'; anything else publishes. */
    intent?: unknown;
    /** The publication date-time field (Warsaw wall time); empty means now. */
    publishAt?: unknown;
  },
  { store = storage(), actor = null }: { store?: Storage; actor?: Actor } = {},
): Promise<SaveResult> {
  const parsed = addSchema.safeParse(input);
  const noImage: ArticleField[] = input.image ? [] : ["image"];
  if (!parsed.success) return refusal(parsed.error, ARTICLE_MESSAGES.missing, noImage);
  const { header, text, date } = parsed.data;
  if (!input.image) return refusal(null, ARTICLE_MESSAGES.missing, noImage);
  const choice = readPublishChoice(input.intent, input.publishAt);
  if (!choice.ok) return { ok: false, status: 400, message: choice.message, fields: ["publishAt"] };
  const publishAt = publishAtFor(choice.choice, null);

  const stored = await storeArticleImage(input.image, store);
  if (!stored.ok) return stored;
  const { image } = stored;

  try {
    const base = clock.now().getTime();
    for (let n = 0; n < MAX_ID_TRIES; n++) {
      const id = String(base + n);
      const inserted = await withDb((db) =>
        db.transaction(async (tx) => {
          const rows = await tx
            .insert(articles)
            .values({
              id,
              header,
              text,
              date,
              imageKey: image.key,
              imageWidth: image.width,
              imageHeight: image.height,
              publishAt,
            })
            .onConflictDoNothing({ target: articles.id })
            .returning({ id: articles.id });
          if (rows.length) {
            const subject = { kind: "article", id, title: header } as const;
            await recordActivity(tx, { actor, action: "created", subject });
            // Added is published unless it waits for its moment.
            if (publicationChange(null, publishAt) === "scheduled") {
              await recordActivity(tx, { actor, action: "scheduled", subject });
            }
          }
          return rows;
        }),
      );
      if (inserted.length) {
        await contentChanged();
        return { ok: true, id, publication: publicationOf(publishAt) };
      }
    }
    throw new Error("no free article id");
  } catch (error) {
    await discardImage(image, store);
    return rowWriteFailed(error);
  }
}

/**
 * Saves an edit. Header, text and date change; the photo is replaced only
 * when `changeImage` is ticked and a photo is sent. The new photo is stored
 * before the row changes; the old one's files are removed after the change
 * has committed.
 */
export async function updateArticle(
  input: {
    id: string;
    header?: unknown;
    text?: unknown;
    date?: unknown;
    changeImage?: unknown;
    image?: ArticleImageUpload | null;
    /** The version the edit began from; when given, a save over a newer one is refused. */
    baseVersion?: unknown;
    /** The photo key the edit began with, to tell whether the photo changed meanwhile. */
    baseImageKey?: unknown;
    /** As for createArticle: 'zapisz jako szkic' takes a published article off the site. */
    intent?: unknown;
    publishAt?: unknown;
  },
  { store = storage(), actor = null }: { store?: Storage; actor?: Actor } = {},
): Promise<SaveResult> {
  const notFound: SaveResult = { ok: false, status: 404, message: ARTICLE_MESSAGES.notFound };
  if (!isArticleId(input.id)) return notFound;
  const parsed = editSchema.safeParse(input);
  if (!parsed.success) return refusal(parsed.error, ARTICLE_MESSAGES.blankEdit);
  const { header, text, date, changeImage } = parsed.data;
  const choice = readPublishChoice(input.intent, input.publishAt);
  if (!choice.ok) return { ok: false, status: 400, message: choice.message, fields: ["publishAt"] };
  if (changeImage && !input.image) {
    return { ok: false, status: 400, message: ARTICLE_MESSAGES.noNewImage, fields: ["image"] };
  }

  const baseVersion = versionOf(input.baseVersion);
  const sent = { header, text, date, baseImageKey: typeof input.baseImageKey === "string" ? input.baseImageKey : null };
  let current;
  try {
    [current] = await withDb((db) =>
      db
        .select(conflictColumns)
        .from(articles)
        .where(and(eq(articles.id, input.id), liveArticle))
        .limit(1),
    );
  } catch (error) {
    return rowWriteFailed(error);
  }
  if (!current) return notFound;
  // Refused before a photo is stored; checked again under the row lock below.
  if (baseVersion !== null && current.version !== baseVersion) return conflictWith(current, sent);

  let newImage: StoredImage | null = null;
  if (changeImage && input.image) {
    const stored = await storeArticleImage(input.image, store);
    if (!stored.ok) return stored;
    newImage = stored.image;
  }

  let replaced: { found: boolean; old: StoredImage | null; publishAt: Date | null; stale?: ConflictRow };
  try {
    replaced = await withDb((db) =>
      db.transaction(async (tx) => {
        // Locked, so two edits replacing the photo at once each remove the file they replaced,
        // and two saves from one version cannot both pass the version check.
        const [row] = await tx
          .select({
            ...conflictColumns,
            imageWidth: articles.imageWidth,
            imageHeight: articles.imageHeight,
            publishAt: articles.publishAt,
          })
          .from(articles)
          .where(and(eq(articles.id, input.id), liveArticle))
          .for("update");
        if (!row) return { found: false, old: null, publishAt: null };
        if (baseVersion !== null && row.version !== baseVersion) {
          return { found: true, old: null, publishAt: null, stale: row };
        }
        const publishAt = publishAtFor(choice.choice, row.publishAt);
        await tx
          .update(articles)
          .set({
            header,
            text,
            publishAt,
            ...(date ? { date } : {}),
            ...(newImage ? { imageKey: newImage.key, imageWidth: newImage.width, imageHeight: newImage.height } : {}),
            version: sql`${articles.version} + 1`,
          })
          .where(eq(articles.id, input.id));
        const subject = { kind: "article", id: input.id, title: header } as const;
        await recordActivity(tx, { actor, action: "edited", subject });
        const change = publicationChange(row.publishAt, publishAt);
        if (change) await recordActivity(tx, { actor, action: change, subject });
        return { found: true, old: newImage ? storedImageOf(row) : null, publishAt };
      }),
    );
  } catch (error) {
    if (newImage) await discardImage(newImage, store);
    return rowWriteFailed(error);
  }
  if (replaced.stale) {
    if (newImage) await discardImage(newImage, store);
    return conflictWith(replaced.stale, sent);
  }
  if (!replaced.found) {
    if (newImage) await discardImage(newImage, store);
    return notFound;
  }
  await contentChanged();
  // Committed: only now may the replaced photo go.
  if (replaced.old) await removeImageFiles(replaced.old, store);
  return { ok: true, id: input.id, publication: publicationOf(replaced.publishAt) };
}

const conflictColumns = {
  header: articles.header,
  text: articles.text,
  date: articles.date,
  imageKey: articles.imageKey,
  version: articles.version,
};
type ConflictRow = { header: string; text: string; date: string; imageKey: string | null; version: number };

/** A version number as the form sends it, or null when none was sent. */
function versionOf(value: unknown): number | null {
  const n =
    typeof value === "number" ? value : typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) ? n : null;
}

/** The refusal of a save over a newer version: nothing was written; what differs from the text sent. */
function conflictWith(
  row: ConflictRow,
  sent: { header: string; text: string; date: string; baseImageKey: string | null },
): Extract<SaveResult, { status: 409 }> {
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

/**
 * Deletes an article: it moves to the bin (gone from every page at once),
 * its photo stays stored so that it can be restored; the bin purges it later.
 */
export async function deleteArticle(
  { id }: { id: string },
  { actor = null }: { actor?: Actor } = {},
): Promise<DeleteResult> {
  const notFound: DeleteResult = { ok: false, status: 404, message: ARTICLE_MESSAGES.notFound };
  if (!isArticleId(id)) return notFound;
  const row = await withDb((db) =>
    db.transaction(async (tx) => {
      const [binned] = await tx
        .update(articles)
        .set({ deletedAt: clock.now(), deletedBy: actor?.email ?? null })
        .where(and(eq(articles.id, id), liveArticle))
        .returning({ header: articles.header });
      if (binned) {
        await recordActivity(tx, { actor, action: "binned", subject: { kind: "article", id, title: binned.header } });
      }
      return binned;
    }),
  );
  if (!row) return notFound;
  await contentChanged();
  return { ok: true, header: row.header };
}

/** The header alone, for the delete question. */
export async function getArticleHeader(id: string): Promise<string | null> {
  if (!isArticleId(id)) return null;
  const [row] = await withDb((db) =>
    db
      .select({ header: articles.header })
      .from(articles)
      .where(and(eq(articles.id, id), liveArticle))
      .limit(1),
  );
  return row?.header ?? null;
}
