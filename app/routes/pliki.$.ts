import type { LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { applySecurityHeaders, baseSecurityHeaders } from "~/http/security-headers.server";
import { isPrivateKey, storage } from "~/services/storage.server";

// The types the site stores its photos in; anything else is handed over as a
// download that may run and load nothing (S3 keeps whatever type a file was
// put with, so the stored type alone is not trusted).
const INLINE_TYPES = new Set(["image/jpeg", "image/png", "image/webp", "image/avif"]);

/** Files kept on local disk. Keys never change, so browsers may cache them for good. */
export async function loader({ params }: LoaderFunctionArgs) {
  const key = params["*"] ?? "";
  // Kept forms' files are read by the server only, whatever they hold.
  const file = isPrivateKey(key) ? null : await storage().get(key);
  const headers = new Headers();
  applySecurityHeaders(headers);
  if (!file) {
    headers.set("Content-Type", "text/plain; charset=utf-8");
    return new Response("Nie znaleziono pliku.", { status: 404, headers });
  }
  headers.set("Content-Length", String(file.size));
  headers.set("Cache-Control", "public, max-age=31536000, immutable");
  if (INLINE_TYPES.has(file.contentType)) {
    headers.set("Content-Type", file.contentType);
    headers.set("Content-Disposition", "inline");
  } else {
    for (const [name, value] of Object.entries(baseSecurityHeaders())) headers.set(name, value);
    headers.set("Content-Type", "application/octet-stream");
    headers.set("Content-Disposition", "attachment");
  }
  return new Response(createReadableStreamFromReadable(file.body), { headers });
}
