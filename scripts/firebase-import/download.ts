// Downloading an image of the old site, within the upload limit and a timeout.
import { readCapped } from "~/services/streams.server";
import { IMAGE_MESSAGES, ImageRejected, MAX_UPLOAD_BYTES } from "~/services/images.server";

class DownloadFailed extends Error {}

/** Fetches a URL into memory, refusing more than the upload limit before it is all read. */
export async function fetchCapped(url: string, timeoutMs: number): Promise<Buffer> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "follow" });
  if (!res.ok || !res.body) {
    await res.body?.cancel().catch(() => {});
    throw new DownloadFailed(`HTTP ${res.status}`);
  }
  if (Number(res.headers.get("content-length")) > MAX_UPLOAD_BYTES) {
    await res.body.cancel().catch(() => {});
    throw new DownloadFailed(IMAGE_MESSAGES.tooLarge);
  }
  const body = await readCapped(res.body, MAX_UPLOAD_BYTES);
  if (!body) throw new DownloadFailed(IMAGE_MESSAGES.tooLarge);
  return body;
}

/** Why an image could not be had, as the summary lists it. */
export function failureReason(error: unknown, timeoutMs: number): string {
  if (error instanceof DownloadFailed || error instanceof ImageRejected) return error.message;
  const e = error as { name?: string; message?: string; cause?: { code?: string; name?: string } };
  if (e?.name === "TimeoutError" || e?.cause?.name === "TimeoutError") {
    return `brak odpowiedzi w ciągu ${Math.round(timeoutMs / 1000)} s`;
  }
  if (e?.cause?.code) return `brak połączenia (${e.cause.code})`;
  return `błąd pobierania (${e?.message ?? String(error)})`;
}
