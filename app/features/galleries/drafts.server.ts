// Drafts of albums: what the pastor has typed and the photos added, kept
// until the album is saved, so that no-script posts and the editor's script
// work on the same state.
import crypto from "node:crypto";
import { and, asc, eq, inArray, isNull, max, sql } from "drizzle-orm";
import { clock } from "~/services/clock.server";
import { type DraftFeedback, galleries, galleryDraftImages, galleryDrafts, galleryImages } from "~/services/schema";
import { type Db, withDb } from "~/services/db.server";
import { type StoredImage, deleteImage } from "~/services/images.server";
import { type GalleryValues, draftText } from "~/features/galleries/album-values";
import {
  type EditorImage,
  cleanAlt,
  deleteImageFiles,
  lockGalleryFiles,
  unreferencedImages,
} from "~/features/galleries/galleries.server";
import { type Storage, storage } from "~/services/storage.server";

export type { DraftFeedback };

export interface GalleryDraft {
  id: string;
  galleryId: number | null;
  folder: string;
  values: GalleryValues;
  feedback: DraftFeedback | null;
  images: EditorImage[];
  updatedAt: Date;
  /** The album's version when this edit began (null for a new album). */
  baseVersion: number | null;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const newId = () => crypto.randomBytes(16).toString("base64url");
/** A folder per draft, so two drafts' "IMG_0001.jpg" never share a key and a deleted key is never reused. */
export const newDraftFolder = () => crypto.randomBytes(6).toString("hex");

/** The draft's images in their order. */
export async function draftImages(tx: Tx | Db, draftId: string): Promise<EditorImage[]> {
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
      values: { title: row.title, description: row.description, date: row.date, publishAt: row.publishAtText },
      feedback: row.feedback ?? null,
      images: await draftImages(db, row.id),
      updatedAt: row.updatedAt,
      baseVersion: row.baseVersion,
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
  baseVersion = null,
}: {
  userId: number;
  galleryId?: number | null;
  values: GalleryValues;
  folder?: string;
  /** The album version the edit began from (the form's); the album's current one when not given. */
  baseVersion?: number | null;
}): Promise<string | null> {
  const id = newId();
  const now = clock.now();
  return withDb((db) =>
    db.transaction(async (tx) => {
      if (galleryId !== null) {
        await lockGalleryFiles(tx);
        const [gallery] = await tx
          .select({ id: galleries.id, version: galleries.version })
          .from(galleries)
          .where(and(eq(galleries.id, galleryId), isNull(galleries.deletedAt)));
        if (!gallery) return null;
        baseVersion ??= gallery.version;
      }
      await tx.insert(galleryDrafts).values({
        id,
        userId,
        galleryId,
        folder,
        title: draftText(values.title),
        description: draftText(values.description),
        date: draftText(values.date),
        baseVersion: galleryId === null ? null : baseVersion,
        publishAtText: draftText(values.publishAt ?? ""),
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
  baseVersion,
}: {
  draftId: string;
  values?: Partial<GalleryValues>;
  feedback?: DraftFeedback | null;
  /** A refused save's newer version: the next save goes over it on purpose. */
  baseVersion?: number;
}): Promise<boolean> {
  const set: Partial<typeof galleryDrafts.$inferInsert> = { updatedAt: clock.now() };
  if (baseVersion !== undefined) set.baseVersion = baseVersion;
  if (values.title !== undefined) set.title = draftText(values.title);
  if (values.description !== undefined) set.description = draftText(values.description);
  if (values.date !== undefined) set.date = draftText(values.date);
  if (values.publishAt !== undefined) set.publishAtText = draftText(values.publishAt);
  if (feedback !== undefined) set.feedback = feedback;
  const rows = await withDb((db) =>
    db.update(galleryDrafts).set(set).where(eq(galleryDrafts.id, draftId)).returning({ id: galleryDrafts.id }),
  );
  return rows.length === 1;
}

/** Appends a stored photo to the draft; false when the draft is gone (its files are then removed). */
export async function addDraftImage(
  {
    draftId,
    name,
    image,
    uploadId = null,
  }: { draftId: string; name: string; image: StoredImage; uploadId?: string | null },
  store: Storage = storage(),
): Promise<DraftImageRow | "gone"> {
  const added = await withDb((db) =>
    db.transaction(async (tx) => {
      // The row lock orders concurrent uploads to one draft.
      if (!(await touchDraft(tx, draftId))) return "gone" as const;
      if (uploadId) {
        const earlier = await findUpload(tx, draftId, uploadId);
        if (earlier) return { row: earlier, fresh: false };
      }
      const [{ last }] = await tx
        .select({ last: max(galleryDraftImages.position) })
        .from(galleryDraftImages)
        .where(eq(galleryDraftImages.draftId, draftId));
      const row = { name, imageKey: image.key, width: image.width, height: image.height };
      await tx.insert(galleryDraftImages).values({ draftId, position: (last ?? -1) + 1, uploadId, ...row });
      return { row, fresh: true };
    }),
  );
  // Not needed: the draft is gone, or a retry's first try already added the photo.
  if (added === "gone" || !added.fresh) await deleteImage(image, store).catch(() => {});
  return added === "gone" ? "gone" : added.row;
}

export interface DraftImageRow {
  name: string;
  imageKey: string;
  width: number;
  height: number;
}

async function findUpload(db: Db | Tx, draftId: string, uploadId: string): Promise<DraftImageRow | null> {
  const [row] = await db
    .select({
      name: galleryDraftImages.name,
      imageKey: galleryDraftImages.imageKey,
      width: galleryDraftImages.width,
      height: galleryDraftImages.height,
    })
    .from(galleryDraftImages)
    .where(and(eq(galleryDraftImages.draftId, draftId), eq(galleryDraftImages.uploadId, uploadId)));
  return row ?? null;
}

/** The photo an earlier try of this upload added to the draft, if it arrived. */
export function uploadedBefore(draftId: string, uploadId: string): Promise<DraftImageRow | null> {
  return withDb((db) => findUpload(db, draftId, uploadId));
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
