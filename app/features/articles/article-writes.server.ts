// Writing articles (the pastor area). Routes only read the request and call
// these functions: the original site's rules (every field of a new article
// required; a photo replaced only when 'Zmień zdjęcie' is ticked) and the
// order of storage and database writes live here, so tests exercise them
// without HTTP.
import { and, eq, sql } from "drizzle-orm";
import { clock } from "~/services/clock.server";
import { articles } from "~/services/schema";
import { contentChanged } from "~/services/content-version.server";
import { DatabaseUnavailableError, withDb } from "~/services/db.server";
import type { StoredImage } from "~/services/images.server";
import { logger } from "~/services/logger.server";
import { type Storage, storage } from "~/services/storage.server";
import { ARTICLE_MESSAGES } from "~/features/articles/messages";
import { type Actor, recordActivity } from "~/features/activity/activity.server";
import {
  publicationOf,
  publicationChange,
  publishAtFor,
  readPublishChoice,
} from "~/features/publishing/publication.server";
import { isArticleId, liveArticle } from "~/features/articles/articles.server";
import { articleFormSchema, refusal } from "~/features/articles/article-schema.server";
import {
  type ArticleImageUpload,
  discardImage,
  removeImageFiles,
  storeArticleImage,
  storedImageOf,
} from "~/features/articles/article-photos.server";
import {
  type ConflictRow,
  conflictColumns,
  conflictWith,
  versionOf,
} from "~/features/articles/article-conflict.server";
import type { ArticleField, DeleteResult, SaveRefusal, SaveResult } from "~/features/articles/save-result";

const addSchema = articleFormSchema("add");
const editSchema = articleFormSchema("edit");

/** A failed row write: the database is unreachable or refused it. */
function rowWriteFailed(error: unknown): SaveRefusal {
  if (error instanceof DatabaseUnavailableError) {
    return { ok: false, status: 503, message: ARTICLE_MESSAGES.saveFailed };
  }
  logger.error({ err: error }, "writing an article failed");
  return { ok: false, status: 500, message: ARTICLE_MESSAGES.saveFailed };
}

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
