// Import from the old Firebase site: a Firestore JSON export of the
// collections aktualnosci, galleries and history-gallery (SPEC §3).
//
// Document ids are kept (article ids stay the millisecond timestamps old
// links use; album titles, hence slugs, stay the same). Every image URL is
// downloaded through the same pipeline as uploads and stored under a key
// derived from the document, so a rerun rewrites the same files and adds no
// rows. An image that cannot be downloaded or is refused is reported and its
// record kept with the original URL (an "external" image, see
// lib/image-variants.ts); a rerun tries such images again.
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import { and, eq, or, sql } from "drizzle-orm";
import { z } from "zod";
import { church } from "~/content/church";
import { articles, galleries, galleryImages, historyPhotos } from "~/services/schema";
import { contentChanged } from "~/services/content-version.server";
import { withDb } from "~/services/db.server";
import {
  IMAGE_MESSAGES,
  ImageRejected,
  MAX_UPLOAD_BYTES,
  type StoredImage,
  storeImageAt,
} from "~/services/images.server";
import { EXTERNAL_IMAGE_ORIGINS, EXTERNAL_IMAGE_SIZE, isExternalImage } from "~/lib/image-variants";
import { todayIn } from "~/lib/text";
import { ARTICLE_IMAGE_FOLDER, isArticleId } from "~/features/articles/articles.server";
import { GALLERY_FOLDER, lockGalleryFiles } from "~/features/galleries/galleries.server";
import { type Storage, safeFileName, storage } from "~/services/storage.server";

export const COLLECTIONS = ["aktualnosci", "galleries", "history-gallery"] as const;
export type CollectionName = (typeof COLLECTIONS)[number];

/** Storage folder of history photos (as the demo content uses). */
export const HISTORY_FOLDER = "historia";

/** The export cannot be used; the message names the document and field. Nothing was imported. */
export class ImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImportFileError";
  }
}

export interface ImportedArticle {
  id: string;
  header: string;
  text: string;
  date: string;
  url: string | null;
}

export interface ImportedGallery {
  docId: string;
  title: string;
  description: string;
  date: string;
  images: { name: string; url: string }[];
}

export interface ImportedHistoryPhoto {
  docId: string;
  name: string;
  url: string;
}

export interface FirebaseExport {
  articles: ImportedArticle[];
  galleries: ImportedGallery[];
  history: ImportedHistoryPhoto[];
}

// ---------------------------------------------------------------------------
// Reading and validating the export.

// Firestore fields may be null; a missing and a null optional field mean the same.
const nullAsMissing = (v: unknown) => (v === null ? undefined : v);

const text = z
  .string({ required_error: "brak pola", invalid_type_error: "oczekiwano tekstu" })
  .refine((v) => !v.includes("\u0000"), "tekst zawiera znak NUL");

const httpUrl = z
  .string({ required_error: "brak pola", invalid_type_error: "oczekiwano adresu (tekstu)" })
  .trim()
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === "http:" || u.protocol === "https:") && isExternalImage(v);
    } catch {
      return false;
    }
  }, "oczekiwano adresu http(s) zdjęcia");

const seconds = z.number().finite();
// Firestore timestamps as the common export tools write them.
const timestamp = z.union([
  z
    .object({ __datatype__: z.literal("timestamp"), value: z.object({ _seconds: seconds }) })
    .transform((t) => t.value._seconds),
  z.object({ _seconds: seconds }).transform((t) => t._seconds),
  z.object({ seconds }).transform((t) => t.seconds),
]);

const dayOf = (d: Date) => todayIn(church.timeZone, d);

/** `YYYY-MM-DD`, legacy free text, a full ISO time or a Firestore timestamp; stored as text. */
const dateField = z.preprocess(
  (v) => {
    const ts = timestamp.safeParse(v);
    if (ts.success) {
      const d = new Date(ts.data * 1000);
      return Number.isNaN(d.getTime()) ? v : dayOf(d);
    }
    if (typeof v === "string" && /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v))) {
      return dayOf(new Date(v));
    }
    return v;
  },
  z
    .string({
      required_error: "brak pola",
      invalid_type_error: "oczekiwano daty (tekst albo znacznik czasu Firestore)",
    })
    .refine((v) => v.trim().length > 0 && !v.includes("\u0000"), "pusta albo niepoprawna data"),
);

const articleSchema = z.object({
  header: text,
  text,
  // An article without a photo is allowed (the app has such articles).
  url: z.preprocess((v) => (v === null || v === "" ? undefined : v), httpUrl.optional()),
  date: dateField,
});

const gallerySchema = z.object({
  title: z.preprocess(nullAsMissing, text.optional()),
  description: z.preprocess(nullAsMissing, text.optional()),
  images: z.preprocess(
    nullAsMissing,
    z
      .array(
        z.object(
          { name: z.preprocess(nullAsMissing, text.optional()), url: httpUrl },
          { invalid_type_error: "oczekiwano obiektu {name, url}" },
        ),
        { invalid_type_error: "oczekiwano listy zdjęć" },
      )
      .optional(),
  ),
  date: dateField,
});

const historySchema = z.object({
  url: httpUrl,
  name: z.preprocess(nullAsMissing, text.optional()),
});

type Issue = { doc: string; field: string | null; message: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A name for an image without one: the last segment of its URL path (Firebase encodes folders as %2F). */
function nameFromUrl(url: string): string {
  let path = new URL(url).pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // keep it encoded
  }
  return path.split("/").filter(Boolean).pop() ?? "zdjecie";
}

/**
 * Checks a parsed export (either `{ "__collections__": { … } }` or the plain
 * `{ "aktualnosci": { … }, … }`) and returns its records in file order.
 * Throws ImportFileError naming the first bad document and field.
 */
export function parseFirebaseExport(json: unknown): FirebaseExport {
  if (!isRecord(json)) throw new ImportFileError("Plik eksportu nie jest obiektem JSON.");
  const root = isRecord(json.__collections__) ? json.__collections__ : json;
  if (!COLLECTIONS.some((c) => c in root)) {
    throw new ImportFileError(`Plik nie zawiera żadnej z kolekcji ${COLLECTIONS.join(", ")}.`);
  }
  const issues: Issue[] = [];
  const out: FirebaseExport = { articles: [], galleries: [], history: [] };

  function each<T extends z.ZodTypeAny>(name: CollectionName, schema: T, take: (id: string, doc: z.infer<T>) => void) {
    const docs = root[name];
    if (docs === undefined || docs === null) return;
    if (!isRecord(docs)) {
      issues.push({ doc: name, field: null, message: "kolekcja nie jest obiektem dokumentów" });
      return;
    }
    for (const [id, doc] of Object.entries(docs)) {
      const where = `${name}/${id}`;
      if (!isRecord(doc)) {
        issues.push({ doc: where, field: null, message: "dokument nie jest obiektem" });
        continue;
      }
      const parsed = schema.safeParse(doc);
      if (!parsed.success) {
        for (const i of parsed.error.issues) issues.push({ doc: where, field: i.path.join("."), message: i.message });
        continue;
      }
      take(id, parsed.data);
    }
  }

  each("aktualnosci", articleSchema, (id, d) => {
    if (!isArticleId(id)) {
      issues.push({
        doc: `aktualnosci/${id}`,
        field: null,
        message: "identyfikator nie nadaje się na adres /aktualnosci/{id}",
      });
      return;
    }
    out.articles.push({ id, header: d.header, text: d.text, date: d.date, url: d.url ?? null });
  });
  each("galleries", gallerySchema, (id, d) => {
    const title = d.title ?? id;
    // Titles name albums in addresses; the app refuses control characters in them.
    if (!title.trim() || /[\u0000-\u001f\u007f]/.test(title)) {
      issues.push({ doc: `galleries/${id}`, field: "title", message: "pusty tytuł albo znaki sterujące" });
      return;
    }
    out.galleries.push({
      docId: id,
      title,
      description: d.description ?? "",
      date: d.date,
      images: (d.images ?? []).map((i) => ({ name: i.name || nameFromUrl(i.url), url: i.url })),
    });
  });
  each("history-gallery", historySchema, (id, d) => {
    out.history.push({ docId: id, name: d.name ?? "", url: d.url });
  });

  if (issues.length) {
    const [first] = issues;
    const more = issues.length > 1 ? ` (błędów w pliku: ${issues.length})` : "";
    throw new ImportFileError(
      `Niepoprawny plik eksportu: ${first.doc}${first.field ? `, pole „${first.field}”` : ""}: ${first.message}${more}. Nic nie zaimportowano.`,
    );
  }
  return out;
}

/** Reads and checks an export file; ImportFileError when it cannot be used. */
export async function readFirebaseExport(file: string): Promise<FirebaseExport> {
  let raw: string;
  try {
    raw = await fs.readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ImportFileError(`Nie można odczytać pliku ${file} (${code}).`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new ImportFileError(`Plik ${file} nie jest poprawnym JSON-em: ${(error as Error).message}`);
  }
  return parseFirebaseExport(json);
}

// ---------------------------------------------------------------------------
// Downloading.

class DownloadFailed extends Error {}

/** Fetches a URL into memory, refusing more than the upload limit before it is all read. */
async function fetchCapped(url: string, timeoutMs: number): Promise<Buffer> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "follow" });
  if (!res.ok || !res.body) {
    await res.body?.cancel().catch(() => {});
    throw new DownloadFailed(`HTTP ${res.status}`);
  }
  if (Number(res.headers.get("content-length")) > MAX_UPLOAD_BYTES) {
    await res.body.cancel().catch(() => {});
    throw new DownloadFailed(IMAGE_MESSAGES.tooLarge);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_UPLOAD_BYTES) {
      await reader.cancel().catch(() => {});
      throw new DownloadFailed(IMAGE_MESSAGES.tooLarge);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

function failureReason(error: unknown, timeoutMs: number): string {
  if (error instanceof DownloadFailed || error instanceof ImageRejected) return error.message;
  const e = error as { name?: string; message?: string; cause?: { code?: string; name?: string } };
  if (e?.name === "TimeoutError" || e?.cause?.name === "TimeoutError") {
    return `brak odpowiedzi w ciągu ${Math.round(timeoutMs / 1000)} s`;
  }
  if (e?.cause?.code) return `brak połączenia (${e.cause.code})`;
  return `błąd pobierania (${e?.message ?? String(error)})`;
}

// ---------------------------------------------------------------------------
// Keys: derived from the document and the URL, so a rerun writes the same
// files, and a different photo never reuses a key (keys are cached for good).

const hash = (value: string) => createHash("sha256").update(value).digest("hex").slice(0, 10);
const part = (value: string, max: number) => safeFileName(value).replace(/\./g, "-").slice(0, max) || "zdjecie";

export function articleImageKey(id: string, url: string): string {
  return `${ARTICLE_IMAGE_FOLDER}/firebase-${id}-${hash(url)}.jpg`;
}

export function galleryImageKey(title: string, name: string, url: string): string {
  return `${GALLERY_FOLDER}/firebase-${part(title, 40)}-${hash(title)}/${part(name, 60)}-${hash(url)}.jpg`;
}

export function historyImageKey(docId: string, url: string): string {
  return `${HISTORY_FOLDER}/firebase-${part(docId, 40)}-${hash(`${docId}\n${url}`)}.jpg`;
}

// ---------------------------------------------------------------------------
// Importing.

export interface CollectionSummary {
  /** Documents of this collection in the file. */
  documents: number;
  added: number;
  /** Already on the site (by article id, album title, history photo key). */
  present: number;
  /** Images downloaded and stored by this run (new records and retried external ones). */
  downloaded: number;
  /** Images that could not be downloaded or were refused; their records keep the URL. */
  unreachable: number;
}

export interface ImageFailure {
  collection: CollectionName;
  docId: string;
  url: string;
  reason: string;
}

export interface ImportSummary {
  collections: Record<CollectionName, CollectionSummary>;
  failures: ImageFailure[];
}

export interface ImportOptions {
  store?: Storage;
  /** Per image, connection and body together. */
  timeoutMs?: number;
  /** Downloads at once; each holds at most the upload limit in memory. */
  concurrency?: number;
  /** Progress lines. */
  log?: (line: string) => void;
}

/** Runs `fn` over the items, at most `limit` at a time; results in item order. */
async function pool<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

const external = (url: string): StoredImage => ({ key: url, ...EXTERNAL_IMAGE_SIZE });

/** Imports an export checked by parseFirebaseExport; safe to run again with the same file. */
export async function importFirebase(data: FirebaseExport, options: ImportOptions = {}): Promise<ImportSummary> {
  const store = options.store ?? storage();
  const timeoutMs = options.timeoutMs ?? 30_000;
  const limit = Math.max(1, options.concurrency ?? 3);
  const log = options.log ?? (() => {});
  const blank = (documents: number): CollectionSummary => ({
    documents,
    added: 0,
    present: 0,
    downloaded: 0,
    unreachable: 0,
  });
  const summary: ImportSummary = {
    collections: {
      aktualnosci: blank(data.articles.length),
      galleries: blank(data.galleries.length),
      "history-gallery": blank(data.history.length),
    },
    failures: [],
  };

  /** Downloads and stores one image; null (reported) when it cannot be had. Storage errors are thrown. */
  async function fetchImage(
    collection: CollectionName,
    docId: string,
    url: string,
    key: string,
  ): Promise<StoredImage | null> {
    const counts = summary.collections[collection];
    let body: Buffer;
    try {
      body = await fetchCapped(url, timeoutMs);
    } catch (error) {
      counts.unreachable++;
      summary.failures.push({ collection, docId, url, reason: failureReason(error, timeoutMs) });
      return null;
    }
    try {
      const image = await storeImageAt(body, key, store);
      counts.downloaded++;
      return image;
    } catch (error) {
      if (!(error instanceof ImageRejected)) throw error;
      counts.unreachable++;
      summary.failures.push({ collection, docId, url, reason: error.message });
      return null;
    }
  }

  // --- aktualnosci: by id.
  log(`aktualnosci: ${data.articles.length}…`);
  const articleCounts = summary.collections.aktualnosci;
  await pool(data.articles, limit, async (a) => {
    const [existing] = await withDb((db) =>
      db.select({ imageKey: articles.imageKey }).from(articles).where(eq(articles.id, a.id)).limit(1),
    );
    if (existing) {
      articleCounts.present++;
      // Kept at its URL last time: try once more.
      if (a.url && existing.imageKey === a.url) {
        const image = await fetchImage("aktualnosci", a.id, a.url, articleImageKey(a.id, a.url));
        if (image) {
          await withDb((db) =>
            db
              .update(articles)
              .set({ imageKey: image.key, imageWidth: image.width, imageHeight: image.height })
              .where(and(eq(articles.id, a.id), eq(articles.imageKey, a.url!))),
          );
        }
      }
      return;
    }
    const image = a.url
      ? ((await fetchImage("aktualnosci", a.id, a.url, articleImageKey(a.id, a.url))) ?? external(a.url))
      : null;
    const ms = /^\d{10,15}$/.test(a.id) ? Number(a.id) : NaN;
    const inserted = await withDb((db) =>
      db
        .insert(articles)
        .values({
          id: a.id,
          header: a.header,
          text: a.text,
          date: a.date,
          imageKey: image?.key ?? null,
          imageWidth: image?.width ?? null,
          imageHeight: image?.height ?? null,
          // The id is the creation time on the old site.
          ...(Number.isFinite(ms) ? { createdAt: new Date(ms) } : {}),
        })
        .onConflictDoNothing()
        .returning({ id: articles.id }),
    );
    if (inserted.length) articleCounts.added++;
    else articleCounts.present++;
  });

  // --- galleries: by title; an album and its images go in together.
  log(`galleries: ${data.galleries.length}…`);
  const galleryCounts = summary.collections.galleries;
  for (const g of data.galleries) {
    const [existing] = await withDb((db) =>
      db.select({ id: galleries.id }).from(galleries).where(eq(galleries.title, g.title)).limit(1),
    );
    if (existing) {
      galleryCounts.present++;
      const urls = new Map(g.images.map((i) => [i.url, i]));
      const kept = (
        await withDb((db) =>
          db
            .select({ id: galleryImages.id, key: galleryImages.imageKey })
            .from(galleryImages)
            .where(eq(galleryImages.galleryId, existing.id)),
        )
      ).filter((r) => isExternalImage(r.key) && urls.has(r.key));
      await pool(kept, limit, async (row) => {
        const source = urls.get(row.key)!;
        const image = await fetchImage(
          "galleries",
          g.docId,
          row.key,
          galleryImageKey(g.title, source.name, source.url),
        );
        if (!image) return;
        await withDb((db) =>
          db
            .update(galleryImages)
            .set({ imageKey: image.key, width: image.width, height: image.height })
            .where(and(eq(galleryImages.id, row.id), eq(galleryImages.imageKey, row.key))),
        );
      });
      continue;
    }
    const images = await pool(
      g.images,
      limit,
      async (i) =>
        (await fetchImage("galleries", g.docId, i.url, galleryImageKey(g.title, i.name, i.url))) ?? external(i.url),
    );
    const added = await withDb((db) =>
      db.transaction(async (tx) => {
        await lockGalleryFiles(tx);
        const [row] = await tx
          .insert(galleries)
          .values({ title: g.title, description: g.description, date: g.date })
          .onConflictDoNothing()
          .returning({ id: galleries.id });
        if (!row) return false;
        if (images.length) {
          await tx.insert(galleryImages).values(
            images.map((image, position) => ({
              galleryId: row.id,
              position,
              name: g.images[position].name,
              imageKey: image.key,
              width: image.width,
              height: image.height,
            })),
          );
        }
        return true;
      }),
    );
    if (added) galleryCounts.added++;
    else galleryCounts.present++;
  }

  // --- history-gallery: by the key derived from the document, or (kept at
  // its URL) by URL and name; new photos follow the existing ones in file order.
  log(`history-gallery: ${data.history.length}…`);
  const historyCounts = summary.collections["history-gallery"];
  const [{ start }] = await withDb((db) =>
    db.select({ start: sql<number>`coalesce(max(${historyPhotos.position}) + 1, 0)::int` }).from(historyPhotos),
  );
  await pool(data.history, limit, async (h, index) => {
    const key = historyImageKey(h.docId, h.url);
    const [existing] = await withDb((db) =>
      db
        .select({ id: historyPhotos.id, key: historyPhotos.imageKey })
        .from(historyPhotos)
        .where(
          or(eq(historyPhotos.imageKey, key), and(eq(historyPhotos.imageKey, h.url), eq(historyPhotos.name, h.name))),
        )
        .limit(1),
    );
    if (existing) {
      historyCounts.present++;
      if (existing.key === h.url) {
        const image = await fetchImage("history-gallery", h.docId, h.url, key);
        if (image) {
          await withDb((db) =>
            db
              .update(historyPhotos)
              .set({ imageKey: image.key, width: image.width, height: image.height })
              .where(and(eq(historyPhotos.id, existing.id), eq(historyPhotos.imageKey, h.url))),
          );
        }
      }
      return;
    }
    const image = (await fetchImage("history-gallery", h.docId, h.url, key)) ?? external(h.url);
    await withDb((db) =>
      db.insert(historyPhotos).values({
        name: h.name,
        imageKey: image.key,
        width: image.width,
        height: image.height,
        position: start + index,
      }),
    );
    historyCounts.added++;
  });

  summary.failures.sort((a, b) =>
    a.collection === b.collection
      ? a.docId.localeCompare(b.docId) || a.url.localeCompare(b.url)
      : COLLECTIONS.indexOf(a.collection) - COLLECTIONS.indexOf(b.collection),
  );
  // A running server shows what was imported at its next page.
  await contentChanged();
  return summary;
}

/** The summary printed at the end of `npm run import:firebase`. */
export function summaryLines(summary: ImportSummary): string[] {
  const lines = COLLECTIONS.map((name) => {
    const c = summary.collections[name];
    return (
      `${name}: w pliku ${c.documents}, dodano ${c.added}, już były ${c.present}, ` +
      `pobrane zdjęcia ${c.downloaded}, niedostępne zdjęcia ${c.unreachable}`
    );
  });
  const added = COLLECTIONS.reduce((sum, name) => sum + summary.collections[name].added, 0);
  lines.push(added === 0 ? "Nic nie dodano: wszystko z pliku już jest na stronie." : `Dodano razem: ${added}.`);
  if (summary.failures.length) {
    lines.push("Niedostępne zdjęcia (rekord zachowany z pierwotnym adresem):");
    for (const f of summary.failures) {
      const shown = EXTERNAL_IMAGE_ORIGINS.some((o) => new URL(f.url).origin === o);
      lines.push(
        `  ${f.collection}/${f.docId}: ${f.url} (${f.reason})${shown ? "" : " – adres spoza " + EXTERNAL_IMAGE_ORIGINS.join(", ") + ": strona go nie wyświetli"}`,
      );
    }
  }
  return lines;
}
