import type { LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { applySecurityHeaders } from "~/http/security-headers.server";
import { storage } from "~/services/storage.server";

/** Files kept on local disk. Keys never change, so browsers may cache them for good. */
export async function loader({ params }: LoaderFunctionArgs) {
  const file = await storage().get(params["*"] ?? "");
  const headers = new Headers();
  applySecurityHeaders(headers);
  if (!file) {
    headers.set("Content-Type", "text/plain; charset=utf-8");
    return new Response("Nie znaleziono pliku.", { status: 404, headers });
  }
  headers.set("Content-Type", file.contentType);
  headers.set("Content-Length", String(file.size));
  headers.set("Cache-Control", "public, max-age=31536000, immutable");
  // Never render an upload as a page, whatever it contains.
  headers.set("Content-Disposition", "inline");
  return new Response(createReadableStreamFromReadable(file.body), { headers });
}
