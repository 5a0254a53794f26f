/**
 * Reads a body into memory, giving up as soon as it passes maxBytes: then the
 * rest is not read (the stream is cancelled) and the answer is null. For
 * small bodies only (a form without files, a photo to import).
 */
export async function readCapped(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Buffer | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, size);
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
}
