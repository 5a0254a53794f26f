// Reading and validating a Firestore JSON export: the whole file is checked
// before anything is imported.
import fs from "node:fs/promises";
import { z } from "zod";
import { church } from "~/content/church";
import { isExternalImage } from "~/lib/image-variants";
import { todayIn } from "~/lib/text";
import { isArticleId } from "~/features/articles/articles.server";

export const COLLECTIONS = ["aktualnosci", "galleries", "history-gallery"] as const;
export type CollectionName = (typeof COLLECTIONS)[number];

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
