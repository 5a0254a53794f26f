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
      // Not awaited: cancelling one branch of a tee (a cloned request)
      // settles only once the other branch is cancelled too.
      reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
}

/**
 * A request's body, refused (null) when its Content-Length or the bytes
 * that actually come exceed maxBytes: a form that is small by nature is
 * never read into memory whole when it is not.
 */
export async function readBodyCapped(request: Request, maxBytes: number): Promise<Buffer | null> {
  if (Number(request.headers.get("Content-Length")) > maxBytes) return null;
  if (!request.body) return Buffer.alloc(0);
  return readCapped(request.body, maxBytes);
}
