import crypto from "node:crypto";
import { and, asc, eq, inArray, max, ne, sql } from "drizzle-orm";
import { clock } from "~/services/clock.server";
import { type DraftFeedback, galleries, galleryDraftImages, galleryDrafts, galleryImages } from "~/services/schema";
import { contentChanged } from "~/services/content-version.server";
import { type Db, withDb } from "~/services/db.server";
import { IMAGE_MESSAGES, ImageRejected, type StoredImage, deleteImage, storeImage } from "~/services/images.server";
import { type RefusedFile, batchReport } from "~/features/galleries/constants";
import { logger } from "~/services/logger.server";
import {
  type EditorImage,
  GALLERY_FOLDER,
  cleanAlt,
  deleteImageFiles,
  lockGalleryFiles,
  unreferencedImages,
} from "~/features/galleries/galleries.server";
import { type Storage, storage } from "~/services/storage.server";

export type { DraftFeedback };

/** Drafts untouched this long are removed, with the files only they named. */
export const DRAFT_TTL_MS = 24 * 60 * 60 * 1000;
export const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;

export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 20_000;

export const GALLERY_MESSAGES = {
  titleTaken: "Jest już galeria o podanym tytule!",
  titleEmpty: "Podaj tytuł galerii.",
  titleTooLong: `Tytuł może mieć najwyżej ${TITLE_MAX} znaków.`,
  titleControl: "Tytuł nie może zawierać znaków sterujących.",
  // "." and ".." are removed from addresses by every browser.
  titleDots: "Tytuł nie może składać się z samych kropek.",
  // /strefapastora/galeria/dodaj is the page for adding albums.
  titleReserved: "Tytuł „dodaj” jest zajęty przez stronę dodawania galerii. Wybierz inny tytuł.",
  descriptionTooLong: `Opis może mieć najwyżej ${DESCRIPTION_MAX} znaków.`,
  dateEmpty: "Podaj datę galerii.",
  dateInvalid: "Podaj poprawną datę (RRRR-MM-DD).",
  imageUnknown: "Nie ma takiego zdjęcia w galerii. Odśwież stronę i spróbuj ponownie.",
  draftGone: "Ten szkic galerii wygasł lub został już zapisany. Zacznij od nowa.",
  galleryGone: "Ta galeria została w międzyczasie usunięta.",
  notSavedRefused:
    "Galerii nie zapisano, bo nie wszystkie wybrane zdjęcia udało się dodać. Sprawdź listę i naciśnij „zapisz” jeszcze raz.",
  storeFailed: "nie udało się zapisać zdjęcia, spróbuj ponownie",
} as const;

export interface GalleryValues {
  title: string;
  description: string;
  date: string;
}

export interface GalleryDraft {
  id: string;
  galleryId: number | null;
  folder: string;
  values: GalleryValues;
  feedback: DraftFeedback | null;
  images: EditorImage[];
  updatedAt: Date;
}

// ---------------------------------------------------------------------------
// Values as typed, and the rules a saved album obeys.

// C0 controls and DEL; NUL cannot even be stored in a Postgres text column.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Text as it may be kept in a draft: no NUL, which Postgres refuses, and line breaks as \n. */
export function draftText(value: string): string {
  return value.replace(/\u0000/g, "").replace(/\r\n?/g, "\n");
}

/** Trimmed and in one Unicode form, so that "ó" typed two ways is one title. */
export function normalizeTitle(title: string): string {
  return title.normalize("NFC").trim();
}

export function isValidDate(date: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

export type FieldErrors = NonNullable<DraftFeedback["fieldErrors"]>;

/** The values as they will be saved, or what is wrong with them (Polish). */
export function checkGalleryValues(input: GalleryValues): { values: GalleryValues; fieldErrors: FieldErrors | null } {
  const title = normalizeTitle(input.title);
  const description = draftText(input.description)
    .replace(/[\u0001-\u0008\u000b-\u001f\u007f]/g, "")
    .trim();
  const date = input.date.trim();
  const errors: FieldErrors = {};
  if (!title) errors.title = GALLERY_MESSAGES.titleEmpty;
  else if ([...title].length > TITLE_MAX) errors.title = GALLERY_MESSAGES.titleTooLong;
  else if (CONTROL.test(title)) errors.title = GALLERY_MESSAGES.titleControl;
  else if (/^\.+$/.test(title) && title.length <= 2) errors.title = GALLERY_MESSAGES.titleDots;
  else if (title.toLowerCase() === "dodaj") errors.title = GALLERY_MESSAGES.titleReserved;
  if ([...description].length > DESCRIPTION_MAX) errors.description = GALLERY_MESSAGES.descriptionTooLong;
  if (!date) errors.date = GALLERY_MESSAGES.dateEmpty;
  else if (!isValidDate(date)) errors.date = GALLERY_MESSAGES.dateInvalid;
  return { values: { title, description, date }, fieldErrors: Object.keys(errors).length ? errors : null };
}

/** True when the error is a violation of this unique index (postgres.js or PGlite, wrapped by drizzle or not). */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let e = error as Record<string, unknown> | undefined, depth = 0; e && depth < 5; depth++) {
    if (e.code === "23505") {
      return (
        e.constraint_name === constraint ||
        e.constraint === constraint ||
        String(e.detail ?? e.message).includes(constraint)
      );
    }
    e = e.cause as Record<string, unknown> | undefined;
  }
  return false;
}

// ---------------------------------------------------------------------------
// Drafts.

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const newId = () => crypto.randomBytes(16).toString("base64url");
/** A folder per draft, so two drafts' "IMG_0001.jpg" never share a key and a deleted key is never reused. */
export const newDraftFolder = () => crypto.randomBytes(6).toString("hex");

async function draftImages(tx: Tx | Db, draftId: string): Promise<EditorImage[]> {
  return tx
    .select({
      key: galleryDraftImages.imageKey,
      name: galleryDraftImages.name,
      width: galleryDraftImages.width,
      height: galleryDraftImages.height,
      alt: galleryDraftImages.alt,
    })
    .from(galleryDraftImages)
    .where(eq(galleryDraftImages.draftId, draftId))
    .orderBy(asc(galleryDraftImages.position), asc(galleryDraftImages.id));
}

/** This user's draft with its images in order, or null. */
export async function getDraft({ id, userId }: { id: string; userId: number }): Promise<GalleryDraft | null> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return null;
  return withDb(async (db) => {
    const [row] = await db
      .select()
      .from(galleryDrafts)
      .where(and(eq(galleryDrafts.id, id), eq(galleryDrafts.userId, userId)));
    if (!row) return null;
    return {
      id: row.id,
      galleryId: row.galleryId,
      folder: row.folder,
      values: { title: row.title, description: row.description, date: row.date },
      feedback: row.feedback ?? null,
      images: await draftImages(db, row.id),
      updatedAt: row.updatedAt,
    };
  });
}

/**
 * Starts a draft: empty for a new album, or a copy of the album's images for
 * an edit (the copy is taken under the files lock, so a concurrent save of
 * the album cannot delete a file the draft has just named). Null when the
 * album is gone.
 */
export async function createDraft({
  userId,
  galleryId = null,
  values,
  folder = newDraftFolder(),
}: {
  userId: number;
  galleryId?: number | null;
  values: GalleryValues;
  folder?: string;
}): Promise<string | null> {
  const id = newId();
  const now = clock.now();
  return withDb((db) =>
    db.transaction(async (tx) => {
      if (galleryId !== null) {
        await lockGalleryFiles(tx);
        const [gallery] = await tx.select({ id: galleries.id }).from(galleries).where(eq(galleries.id, galleryId));
        if (!gallery) return null;
      }
      await tx.insert(galleryDrafts).values({
        id,
        userId,
        galleryId,
        folder,
        title: draftText(values.title),
        description: draftText(values.description),
        date: draftText(values.date),
        createdAt: now,
        updatedAt: now,
      });
      if (galleryId !== null) {
        await tx.execute(sql`
          insert into ${galleryDraftImages} (draft_id, position, name, image_key, width, height, alt)
          select ${id}, row_number() over (order by position, id) - 1, name, image_key, width, height, alt
          from ${galleryImages} where gallery_id = ${galleryId}`);
      }
      return id;
    }),
  );
}

/** Locks the draft row for this transaction and marks it used; false when it is gone. */
async function touchDraft(tx: Tx, draftId: string): Promise<boolean> {
  const rows = await tx
    .update(galleryDrafts)
    .set({ updatedAt: clock.now() })
    .where(eq(galleryDrafts.id, draftId))
    .returning({ id: galleryDrafts.id });
  return rows.length === 1;
}

/** Keeps what was typed and what the last step reported. False when the draft is gone. */
export async function updateDraft({
  draftId,
  values = {},
  feedback,
}: {
  draftId: string;
  values?: Partial<GalleryValues>;
  feedback?: DraftFeedback | null;
}): Promise<boolean> {
  const set: Partial<typeof galleryDrafts.$inferInsert> = { updatedAt: clock.now() };
  if (values.title !== undefined) set.title = draftText(values.title);
  if (values.description !== undefined) set.description = draftText(values.description);
  if (values.date !== undefined) set.date = draftText(values.date);
  if (feedback !== undefined) set.feedback = feedback;
  const rows = await withDb((db) =>
    db.update(galleryDrafts).set(set).where(eq(galleryDrafts.id, draftId)).returning({ id: galleryDrafts.id }),
  );
  return rows.length === 1;
}

/** Appends a stored photo to the draft; false when the draft is gone (its files are then removed). */
export async function addDraftImage(
  { draftId, name, image }: { draftId: string; name: string; image: StoredImage },
  store: Storage = storage(),
): Promise<boolean> {
  const added = await withDb((db) =>
    db.transaction(async (tx) => {
      // The row lock orders concurrent uploads to one draft.
      if (!(await touchDraft(tx, draftId))) return false;
      const [{ last }] = await tx
        .select({ last: max(galleryDraftImages.position) })
        .from(galleryDraftImages)
        .where(eq(galleryDraftImages.draftId, draftId));
      await tx.insert(galleryDraftImages).values({
        draftId,
        position: (last ?? -1) + 1,
        name,
        imageKey: image.key,
        width: image.width,
        height: image.height,
      });
      return true;
    }),
  );
  if (!added) await deleteImage(image, store).catch(() => {});
  return added;
}

/**
 * Keeps the photo descriptions typed in the editor (key → text). Keys the
 * draft does not hold are ignored. False when the draft is gone.
 */
export async function setDraftAlts({
  draftId,
  alts,
}: {
  draftId: string;
  alts: Map<string, string>;
}): Promise<boolean> {
  if (alts.size === 0) return true;
  const pairs = [...alts].map(([key, alt]) => sql`(${key}::text, ${cleanAlt(alt)}::text)`);
  return withDb((db) =>
    db.transaction(async (tx) => {
      if (!(await touchDraft(tx, draftId))) return false;
      await tx.execute(sql`
        update ${galleryDraftImages} set alt = typed.alt
        from (values ${sql.join(pairs, sql`, `)}) as typed(key, alt)
        where ${galleryDraftImages.draftId} = ${draftId} and ${galleryDraftImages.imageKey} = typed.key`);
      return true;
    }),
  );
}

/** Whether the typed descriptions differ from the images' own. */
export function altsChange(images: EditorImage[], alts: Map<string, string>): boolean {
  return images.some((img) => alts.has(img.key) && cleanAlt(alts.get(img.key)!) !== img.alt);
}

export type ImageChange =
  | { kind: "up" | "down" | "cover" | "remove"; key: string }
  /** The keys in their new order; images not named keep their order after them. */
  | { kind: "order"; keys: string[] };

/** Moves or removes images of a draft. A removed upload nothing else names is deleted after the commit. */
export async function changeDraftImages(
  { draftId, change }: { draftId: string; change: ImageChange },
  store: Storage = storage(),
): Promise<"ok" | "draft-gone" | "image-unknown"> {
  const result = await withDb((db) =>
    db.transaction(async (tx) => {
      if (change.kind === "remove") await lockGalleryFiles(tx);
      if (!(await touchDraft(tx, draftId))) return { status: "draft-gone" as const };
      const rows = await tx
        .select({
          id: galleryDraftImages.id,
          key: galleryDraftImages.imageKey,
          width: galleryDraftImages.width,
          height: galleryDraftImages.height,
        })
        .from(galleryDraftImages)
        .where(eq(galleryDraftImages.draftId, draftId))
        .orderBy(asc(galleryDraftImages.position), asc(galleryDraftImages.id));
      let order = rows;
      let removed: StoredImage[] = [];
      if (change.kind === "order") {
        const byKey = new Map(rows.map((r) => [r.key, r]));
        const named = [...new Set(change.keys)].flatMap((k) => byKey.get(k) ?? []);
        const namedIds = new Set(named.map((r) => r.id));
        order = [...named, ...rows.filter((r) => !namedIds.has(r.id))];
      } else {
        const at = rows.findIndex((r) => r.key === change.key);
        if (at < 0) return { status: "image-unknown" as const };
        order = [...rows];
        const [row] = order.splice(at, 1);
        if (change.kind === "up") order.splice(Math.max(0, at - 1), 0, row);
        else if (change.kind === "down") order.splice(Math.min(order.length, at + 1), 0, row);
        else if (change.kind === "cover") order.unshift(row);
        else {
          await tx.delete(galleryDraftImages).where(eq(galleryDraftImages.id, row.id));
          removed = await unreferencedImages(tx, [row]);
        }
      }
      const moved = order.flatMap((r, position) => (rows[position]?.id === r.id ? [] : [{ id: r.id, position }]));
      if (moved.length) {
        await tx
          .update(galleryDraftImages)
          .set({
            position: sql`case ${galleryDraftImages.id} ${sql.join(
              order.map((r, position) => sql`when ${r.id} then ${position}::int`),
              sql` `,
            )} end`,
          })
          .where(
            inArray(
              galleryDraftImages.id,
              order.map((r) => r.id),
            ),
          );
      }
      return { status: "ok" as const, removed };
    }),
  );
  if (result.status === "ok") await deleteImageFiles(result.removed, store);
  return result.status;
}

// ---------------------------------------------------------------------------
// Photos arriving in a batch.

export interface UploadedPhoto {
  /** File name as the browser sent it. */
  name: string;
  /** A temporary file on local disk. */
  path: string;
}

export type PhotoResult =
  { name: string; ok: true; image: EditorImage } | { name: string; ok: false; reason: string; heic?: boolean };

/** A file name fit for a row and a page: no control characters, not endless. */
export function displayName(name: string): string {
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return (clean.length > 120 ? `${clean.slice(0, 80)}…${clean.slice(-30)}` : clean) || "zdjęcie";
}

/** 'format HEIC nie jest obsługiwany': the first sentence of the pipeline's message, as a clause. */
export function refusalReason(error: unknown): string {
  if (error instanceof ImageRejected) {
    const first = IMAGE_MESSAGES[error.reason].split(/\.\s/)[0].replace(/\.$/, "");
    return first.charAt(0).toLowerCase() + first.slice(1);
  }
  return GALLERY_MESSAGES.storeFailed;
}

/**
 * Adds photos to a draft one at a time (one decoded photo in memory at a
 * time per request), so one bad file refuses only itself. The draft is
 * created with the first photo that is accepted: a batch that adds nothing
 * leaves no trace. Returns the draft id (null if none) and one result per file.
 */
export async function addPhotos(
  {
    draftId,
    folder,
    startDraft,
    photos,
  }: {
    draftId: string | null;
    folder: string;
    /** Creates the draft when the first photo is stored; null when that is no longer possible. */
    startDraft: () => Promise<string | null>;
    photos: UploadedPhoto[];
  },
  store: Storage = storage(),
): Promise<{ draftId: string | null; results: PhotoResult[]; gone: boolean }> {
  const results: PhotoResult[] = [];
  let gone = false;
  for (const photo of photos) {
    const name = displayName(photo.name);
    if (gone) {
      results.push({ name, ok: false, reason: GALLERY_MESSAGES.storeFailed });
      continue;
    }
    let stored: StoredImage;
    try {
      stored = await storeImage(photo.path, photo.name, `${GALLERY_FOLDER}/${folder}`, store);
    } catch (error) {
      if (!(error instanceof ImageRejected)) logger.error({ err: error }, "storing a gallery photo failed");
      results.push({
        name,
        ok: false,
        reason: refusalReason(error),
        heic: error instanceof ImageRejected && error.reason === "heic",
      });
      continue;
    }
    try {
      draftId ??= await startDraft();
      if (draftId && (await addDraftImage({ draftId, name, image: stored }, store))) {
        results.push({
          name,
          ok: true,
          image: { key: stored.key, name, width: stored.width, height: stored.height, alt: "" },
        });
        continue;
      }
      gone = true;
      await deleteImage(stored, store).catch(() => {});
      results.push({ name, ok: false, reason: GALLERY_MESSAGES.storeFailed });
    } catch (error) {
      // The database failed after the files were written: remove them, then answer as the database did.
      await deleteImage(stored, store).catch(() => {});
      throw error;
    }
  }
  return { draftId, results, gone };
}

/** '7 z 8 zdjęć dodano; IMG_0042.HEIC: format HEIC nie jest obsługiwany', or null for no files. */
export function reportFor(results: PhotoResult[]): string | null {
  if (results.length === 0) return null;
  const refused: RefusedFile[] = results.flatMap((r) => (r.ok ? [] : [{ name: r.name, reason: r.reason }]));
  return batchReport(results.length, refused);
}

/** How to send iPhone photos as JPEG, when a HEIC file was refused. */
export function hintFor(results: PhotoResult[]): string | null {
  if (!results.some((r) => !r.ok && r.heic)) return null;
  return IMAGE_MESSAGES.heic.split(/\.\s/).slice(1).join(". ");
}

// ---------------------------------------------------------------------------
// Saving.

export type SaveResult =
  { ok: true; title: string } | { ok: false; fieldErrors?: FieldErrors; error?: string; gone?: "draft" | "gallery" };

class TitleTaken extends Error {}

/** Whether another album has this title (the album being edited excepted). */
export async function isTitleTaken(title: string, exceptGalleryId: number | null = null): Promise<boolean> {
  const rows = await withDb((db) =>
    db
      .select({ id: galleries.id })
      .from(galleries)
      .where(
        exceptGalleryId === null
          ? eq(galleries.title, normalizeTitle(title))
          : and(eq(galleries.title, normalizeTitle(title)), ne(galleries.id, exceptGalleryId)),
      )
      .limit(1),
  );
  return rows.length > 0;
}

/**
 * Saves an album in one transaction: a new one, or the edited one under its
 * (possibly new) title, with the draft's images in the draft's order. With
 * no draft the album keeps the images it has. The draft is deleted; files
 * the album no longer shows, and nothing else names, are deleted after the
 * commit. Another album's title is refused, also when two saves race for it.
 */
export async function saveGallery(
  {
    userId,
    draftId,
    galleryId,
    values: input,
  }: { userId: number; draftId: string | null; galleryId: number | null; values: GalleryValues },
  store: Storage = storage(),
): Promise<SaveResult> {
  const { values, fieldErrors } = checkGalleryValues(input);
  if (fieldErrors) return { ok: false, fieldErrors };
  let outcome: { result: SaveResult; removed: StoredImage[] };
  try {
    outcome = await withDb((db) =>
      db.transaction(async (tx) => {
        await lockGalleryFiles(tx);
        let images: EditorImage[] | null = null;
        if (draftId) {
          const [draft] = await tx
            .select({ galleryId: galleryDrafts.galleryId })
            .from(galleryDrafts)
            .where(and(eq(galleryDrafts.id, draftId), eq(galleryDrafts.userId, userId)))
            .for("update");
          if (!draft || draft.galleryId !== galleryId)
            return { result: { ok: false, gone: "draft" }, removed: [] } as const;
          images = await draftImages(tx, draftId);
        }
        const clash = await tx
          .select({ id: galleries.id })
          .from(galleries)
          .where(
            galleryId === null
              ? eq(galleries.title, values.title)
              : and(eq(galleries.title, values.title), ne(galleries.id, galleryId)),
          );
        if (clash.length) throw new TitleTaken();

        let id: number;
        let removed: StoredImage[] = [];
        if (galleryId === null) {
          [{ id }] = await tx.insert(galleries).values(values).returning({ id: galleries.id });
        } else {
          const updated = await tx
            .update(galleries)
            .set(values)
            .where(eq(galleries.id, galleryId))
            .returning({ id: galleries.id });
          if (updated.length === 0) return { result: { ok: false, gone: "gallery" }, removed: [] } as const;
          id = galleryId;
        }
        if (images) {
          const before = await tx
            .select({ key: galleryImages.imageKey, width: galleryImages.width, height: galleryImages.height })
            .from(galleryImages)
            .where(eq(galleryImages.galleryId, id));
          await tx.delete(galleryImages).where(eq(galleryImages.galleryId, id));
          if (images.length) {
            await tx.insert(galleryImages).values(
              images.map((img, position) => ({
                galleryId: id,
                position,
                name: img.name,
                imageKey: img.key,
                width: img.width,
                height: img.height,
                alt: img.alt,
              })),
            );
          }
          await tx.delete(galleryDrafts).where(eq(galleryDrafts.id, draftId!));
          removed = await unreferencedImages(tx, before);
        }
        return { result: { ok: true, title: values.title }, removed } as const;
      }),
    );
  } catch (error) {
    // The check above sees committed albums only; two saves at once meet at the unique index.
    if (error instanceof TitleTaken || isUniqueViolation(error, "galleries_title_key")) {
      return { ok: false, error: GALLERY_MESSAGES.titleTaken };
    }
    throw error;
  }
  if (outcome.result.ok) await contentChanged();
  await deleteImageFiles(outcome.removed, store);
  return outcome.result;
}

// ---------------------------------------------------------------------------
// Cleanup of abandoned drafts and of files nothing names.

const SWEEP_LOCK = 7215_2026;

/** The stored image a file belongs to: `x.jpg` itself, or the large JPEG of a variant `x-480.webp` / `x-1200.jpeg`. */
export function baseKeyOf(key: string): string | null {
  if (key.endsWith(".jpg")) return key;
  const variant = /^(.*)-\d+\.(?:webp|jpeg)$/.exec(key);
  return variant ? `${variant[1]}.jpg` : null;
}

/**
 * Removes drafts untouched for `maxAgeMs` and every file under galeria/
 * older than that which no album and no draft names (the photos of those
 * drafts, and leftovers of uploads interrupted midway). Safe with several
 * instances: one sweeps at a time (an advisory lock; the others skip), and
 * drafts in use are skipped (SKIP LOCKED). A file still named by any row is
 * never deleted.
 */
export async function cleanupGalleryDrafts(
  { now = clock.now(), maxAgeMs = DRAFT_TTL_MS }: { now?: Date; maxAgeMs?: number } = {},
  store: Storage = storage(),
): Promise<{ skipped: boolean; drafts: number; files: number }> {
  const cutoff = new Date(now.getTime() - maxAgeMs);
  const old = (await store.list(`${GALLERY_FOLDER}/`)).filter((f) => f.lastModified < cutoff);
  const swept = await withDb((db) =>
    db.transaction(async (tx) => {
      const [{ locked }] = rowsOf<{ locked: boolean }>(
        await tx.execute(sql`select pg_try_advisory_xact_lock(${SWEEP_LOCK}) as locked`),
      );
      if (!locked) return null;
      await lockGalleryFiles(tx);
      const expired = await tx.execute(sql`
        delete from ${galleryDrafts} where id in (
          select id from ${galleryDrafts} where updated_at < ${cutoff.toISOString()}::timestamptz
          for update skip locked)
        returning id`);
      const expiredIds = rowsOf<{ id: string }>(expired).map((r) => r.id);
      // Rows are gone (cascade); what they named is now checked like any old file.
      const candidates = new Map<string, StoredImage>();
      for (const file of old) {
        const base = baseKeyOf(file.key);
        if (base && !candidates.has(base)) candidates.set(base, { key: base, width: 0, height: 0 });
      }
      const unused = new Set((await unreferencedImages(tx, [...candidates.values()])).map((i) => i.key));
      return { drafts: expiredIds.length, unused };
    }),
  );
  if (!swept) return { skipped: true, drafts: 0, files: 0 };
  let files = 0;
  for (const file of old) {
    const base = baseKeyOf(file.key);
    if (!base || !swept.unused.has(base)) continue;
    try {
      await store.delete(file.key);
      files++;
    } catch (error) {
      logger.error({ err: error, key: file.key }, "removing an abandoned gallery file failed");
    }
  }
  return { skipped: false, drafts: swept.drafts, files };
}

// postgres.js returns the rows, PGlite an object holding them.
function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}

const globalStore = globalThis as typeof globalThis & { __galleryCleanup?: NodeJS.Timeout };

/** Runs the cleanup now and every hour; the timer does not keep the process alive. */
export function scheduleGalleryCleanup(intervalMs = CLEANUP_INTERVAL_MS) {
  const run = () =>
    cleanupGalleryDrafts().then(
      (r) => {
        if (r.drafts || r.files) logger.info(r, "abandoned gallery drafts removed");
      },
      (error) => logger.error({ err: error }, "cleaning gallery drafts failed"),
    );
  if (globalStore.__galleryCleanup) return;
  void run();
  globalStore.__galleryCleanup = setInterval(run, intervalMs);
  globalStore.__galleryCleanup.unref();
}

/** Stops the hourly cleanup (at shutdown). */
export function stopGalleryCleanup() {
  clearInterval(globalStore.__galleryCleanup);
  globalStore.__galleryCleanup = undefined;
}
