import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import {
  MaxPartSizeExceededError,
  type UploadHandlerPart,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from "@remix-run/node";

export interface UploadLimits {
  /** Bytes of one file. */
  maxFileBytes: number;
  /** Bytes of one text field. */
  maxFieldBytes: number;
  /** Bytes of the whole request body, multipart framing included. */
  maxTotalBytes: number;
  maxFiles: number;
  maxFields: number;
}

// Remix's default part limit is 3 MB; phone photos are bigger. A batch is
// sent in small groups, so one request never carries a whole album.
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  maxFileBytes: 25 * 1024 * 1024,
  maxFieldBytes: 1024 * 1024,
  maxTotalBytes: 200 * 1024 * 1024,
  maxFiles: 20,
  maxFields: 200,
};

export interface UploadedFile {
  /** Name of the form field. */
  field: string;
  /** File name as the browser sent it (base name only); not safe for paths or keys. */
  name: string;
  /** Temporary file holding the bytes; removed by `cleanup()`. */
  path: string;
  size: number;
  /** What the browser claimed; not to be trusted. */
  contentType: string;
}

export interface ParsedUpload {
  ok: true;
  fields: URLSearchParams;
  files: UploadedFile[];
  /** Removes the temporary files; call once they are processed (in `finally`). */
  cleanup(): Promise<void>;
}

export interface UploadFailure {
  ok: false;
  status: 400 | 413;
  /** Polish, for the page. */
  message: string;
  /** Text fields read before the failure, to refill the form. */
  fields: URLSearchParams;
}

export type UploadResult = ParsedUpload | UploadFailure;

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export const UPLOAD_MESSAGES = {
  fileTooLarge: (name: string, limit: number) => `Plik „${name}” jest za duży (maksymalnie ${mb(limit)}).`,
  fieldTooLarge: (limit: number) => `Tekst w formularzu jest za długi (maksymalnie ${mb(limit)}).`,
  totalTooLarge: (limit: number) =>
    `Przesyłane pliki są razem za duże (maksymalnie ${mb(limit)} naraz). Wyślij mniej zdjęć naraz.`,
  tooManyFiles: (limit: number) => `Za dużo plików naraz (maksymalnie ${limit}). Wyślij je w kilku częściach.`,
  tooManyFields: "Formularz ma za dużo pól.",
  malformed: "Nie udało się odczytać przesłanego formularza. Spróbuj wysłać go jeszcze raz.",
};

const TMP_PREFIX = "zbor-upload-";

class LimitExceeded extends Error {
  constructor(readonly userMessage: string) {
    super(userMessage);
  }
}

/** A failure of our own disk, not of the request: it stays a server error. */
class TempWriteError extends Error {}

// A refused body is still read this far, so the browser gets the answer.
const DRAIN_MAX_BYTES = 1024 * 1024 * 1024;

/**
 * The same request, except that a body given up early (a refused upload) is
 * read to its end and thrown away instead of the connection being cut: a
 * browser still sending the files shows a reset connection, not our Polish
 * message, when the server stops reading. Nothing read is kept.
 */
function finishingBody(request: Request): Request {
  if (!request.body) return request;
  const reader = request.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel() {
      void (async () => {
        let read = 0;
        try {
          while (read <= DRAIN_MAX_BYTES) {
            const { done, value } = await reader.read();
            if (done) return;
            read += value.byteLength;
          }
          await reader.cancel();
        } catch {
          // The client went away.
        }
      })();
    },
  });
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    duplex: "half",
  } as RequestInit);
}

/**
 * The boundary of a `multipart/form-data` Content-Type, read as Remix's
 * parser reads it (`type; boundary=…`), or null. Read by hand: the header
 * is the client's, and `/\s*;\s*boundary=/` backtracks on long runs of spaces.
 */
export function multipartBoundary(header: string): string | null {
  const semi = header.indexOf(";");
  if (semi === -1 || header.slice(0, semi).trimEnd() !== "multipart/form-data") return null;
  const rest = header.slice(semi + 1).trimStart();
  return rest.startsWith("boundary=") && rest.length > "boundary=".length ? rest.slice("boundary=".length) : null;
}

/**
 * Reads a multipart/form-data request part by part: files are streamed to a
 * temporary folder (never held in memory), text fields are kept in memory up
 * to a small limit. Anything over a limit or malformed becomes a failure with
 * status 413/400 and a Polish message, with no temporary files left behind.
 */
export async function parseUpload(
  request: Request,
  options: Partial<UploadLimits> & { tmpDir?: string } = {},
): Promise<UploadResult> {
  const limits = { ...DEFAULT_UPLOAD_LIMITS, ...options };
  const tmpDir = options.tmpDir ?? os.tmpdir();
  // A refused upload is still read to its end, so the browser shows our answer.
  request = finishingBody(request);
  const fields = new URLSearchParams();
  const fail = (status: 400 | 413, message: string): UploadFailure => ({ ok: false, status, message, fields });

  const boundary = multipartBoundary(request.headers.get("Content-Type") ?? "");
  if (!boundary || !request.body) return fail(400, UPLOAD_MESSAGES.malformed);
  const declared = Number(request.headers.get("Content-Length"));
  if (declared > limits.maxTotalBytes) {
    await request.body.cancel().catch(() => {});
    return fail(413, UPLOAD_MESSAGES.totalTooLarge(limits.maxTotalBytes));
  }

  // Counts the body as it flows, so a chunked body without Content-Length is
  // capped too, and notes whether the closing delimiter came: the parser
  // ends quietly on a body with no delimiter at all.
  const closing = Buffer.from(`--${boundary}--`);
  let total = 0;
  let overTotal = false;
  let sawClosing = false;
  let tail = Buffer.alloc(0);
  const reader = request.body.getReader();
  const counted = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      total += value.byteLength;
      if (total > limits.maxTotalBytes) {
        overTotal = true;
        controller.error(new LimitExceeded(UPLOAD_MESSAGES.totalTooLarge(limits.maxTotalBytes)));
        await reader.cancel().catch(() => {});
        return;
      }
      if (!sawClosing) {
        const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
        const keep = closing.length - 1;
        // The delimiter may straddle two chunks.
        sawClosing = chunk.includes(closing) || Buffer.concat([tail, chunk.subarray(0, keep)]).includes(closing);
        tail = Buffer.from(Buffer.concat([tail, chunk.subarray(-keep)]).subarray(-keep));
      }
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  const body = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: counted,
    duplex: "half",
  } as RequestInit);

  let dir: string | undefined;
  const files: UploadedFile[] = [];
  const cleanup = async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  };
  let current: { name: string; filename?: string } = { name: "" };
  let fieldCount = 0;
  const textHandler = unstable_createMemoryUploadHandler({ maxPartSize: limits.maxFieldBytes });

  async function fileHandler(part: UploadHandlerPart) {
    // An empty file input arrives as a part with an empty name and no bytes.
    if (!part.filename) {
      let size = 0;
      for await (const chunk of part.data) {
        size += chunk.byteLength;
        if (size > limits.maxFileBytes) throw new MaxPartSizeExceededError(part.name, limits.maxFileBytes);
      }
      return undefined;
    }
    if (files.length >= limits.maxFiles) throw new LimitExceeded(UPLOAD_MESSAGES.tooManyFiles(limits.maxFiles));
    try {
      dir ??= await fs.mkdtemp(path.join(tmpDir, TMP_PREFIX));
    } catch (error) {
      throw new TempWriteError("Cannot create a temporary upload folder", { cause: error });
    }
    const file = path.join(dir, randomUUID());
    let size = 0;
    let tooLarge = false;
    try {
      // pipeline waits for the disk when it is slower than the network.
      await pipeline(
        async function* () {
          for await (const chunk of part.data) {
            size += chunk.byteLength;
            if (size > limits.maxFileBytes) {
              tooLarge = true;
              throw new MaxPartSizeExceededError(part.name, limits.maxFileBytes);
            }
            yield chunk;
          }
        },
        createWriteStream(file, { flags: "wx" }),
      );
    } catch (error) {
      await fs.rm(file, { force: true });
      if (tooLarge || error instanceof LimitExceeded || !(error as NodeJS.ErrnoException).syscall) throw error;
      throw new TempWriteError("Cannot write a temporary upload file", { cause: error });
    }
    files.push({ field: part.name, name: part.filename, path: file, size, contentType: part.contentType });
    return undefined;
  }

  try {
    // The handler keeps everything itself and adds nothing to Remix's FormData.
    await unstable_parseMultipartFormData(body, async (part) => {
      current = { name: part.name, filename: part.filename };
      if (typeof part.filename === "string") return fileHandler(part);
      if (++fieldCount > limits.maxFields) throw new LimitExceeded(UPLOAD_MESSAGES.tooManyFields);
      const value = await textHandler(part);
      if (typeof value === "string") fields.append(part.name, value);
      return undefined;
    });
    if (!sawClosing) {
      await cleanup();
      return fail(400, UPLOAD_MESSAGES.malformed);
    }
    return { ok: true, fields, files, cleanup };
  } catch (error) {
    await cleanup();
    await reader.cancel().catch(() => {});
    if (error instanceof TempWriteError) throw error;
    if (overTotal) return fail(413, UPLOAD_MESSAGES.totalTooLarge(limits.maxTotalBytes));
    if (error instanceof LimitExceeded) return fail(413, error.userMessage);
    if (error instanceof MaxPartSizeExceededError) {
      return fail(
        413,
        current.filename !== undefined
          ? UPLOAD_MESSAGES.fileTooLarge(current.filename || current.name, limits.maxFileBytes)
          : UPLOAD_MESSAGES.fieldTooLarge(limits.maxFieldBytes),
      );
    }
    // Whatever else the parser or the body stream throws is a broken request.
    return fail(400, UPLOAD_MESSAGES.malformed);
  }
}

/**
 * Removes temporary upload folders left by a process that stopped midway
 * (run at start and now and then; safe beside other instances because a
 * request never takes as long as `olderThanMs`).
 */
export async function removeStaleUploads(olderThanMs = 6 * 60 * 60 * 1000, tmpDir = os.tmpdir()): Promise<number> {
  let removed = 0;
  for (const entry of await fs.readdir(tmpDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !entry.name.startsWith(TMP_PREFIX)) continue;
    const full = path.join(tmpDir, entry.name);
    try {
      const { mtimeMs } = await fs.stat(full);
      if (Date.now() - mtimeMs < olderThanMs) continue;
      await fs.rm(full, { recursive: true, force: true });
      removed++;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  return removed;
}
