import crypto from "node:crypto";
import { isNotModified, publicCache } from "~/http/cache.server";
import { applySecurityHeaders } from "~/http/security-headers.server";

/**
 * A generated text file with the caching of public pages: shared for a
 * minute, then revalidated with an ETag of its content (304 when unchanged).
 */
export function publicTextResponse(request: Request, body: string, contentType: string): Response {
  const etag = `W/"${crypto.createHash("sha1").update(body).digest("base64url").slice(0, 27)}"`;
  const headers = new Headers({ "Cache-Control": publicCache(), ETag: etag, "Content-Type": contentType });
  applySecurityHeaders(headers);
  if (isNotModified(request, etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { headers });
}
