// Downloading an image of the old site, within the upload limit and a timeout.
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
