import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer, isRouteErrorResponse } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { church } from "./content/church";
import { db } from "~/services/db.server";
import { PRIVATE_CACHE, cacheControlFor, documentEtag, isNotModified, isPastorPath } from "~/http/cache.server";
import { yearIn } from "./lib/text";
import { siteCss } from "~/http/inline-css.server";
import { DocumentContext } from "./lib/document-context";
import { applySecurityHeaders, createNonce } from "~/http/security-headers.server";
import { logger } from "~/services/logger.server";
import { churchPayload } from "~/features/giving/payment-qr.server";
import { removeStaleUploads } from "~/services/upload.server";
import { scheduleGalleryCleanup } from "~/features/galleries/drafts.server";
import { backfillShareImages } from "~/features/seo/share-images.server";
import { config } from "~/services/config.server";

// A mistyped account number or NIP stops the server with a message naming
// it, rather than printing a donation QR code that sends money astray.
churchPayload();
// Connect, migrate and seed at start rather than on the first visit; then
// give photos stored before sharing JPEGs existed theirs, in the background.
db().then(
  () => backfillShareImages().catch((error) => logger.error({ err: error }, "making sharing images failed")),
  (error) => logger.error({ err: error }, "database not ready at start"),
);
if (config().isProduction && !config().publicUrl) {
  logger.warn("PUBLIC_URL is not set: canonical links, feeds and sharing tags use the address of each request");
}
// Temporary upload files left behind by a process that crashed.
removeStaleUploads().catch((error) => logger.error({ err: error }, "cleaning temporary uploads failed"));
// Drafts of albums abandoned for a day, and their photos: now and every hour.
scheduleGalleryCleanup();

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const cacheControl = cacheControlFor(request, responseStatusCode, responseHeaders);
  responseHeaders.set("Cache-Control", cacheControl);
  if (cacheControl !== PRIVATE_CACHE && cacheControl !== "no-store" && responseStatusCode < 500) {
    const etag = documentEtag(request, responseStatusCode, remixContext, String(yearIn(church.timeZone)));
    responseHeaders.set("ETag", etag);
    if (isNotModified(request, etag)) {
      // Nothing rendered. No new CSP either: the stored copy keeps the
      // policy whose nonce matches its scripts.
      return new Response(null, { status: 304, headers: responseHeaders });
    }
  }

  const nonce = createNonce();
  // Rendered to a string, not streamed: no page waits on deferred data, and
  // React 18's stream writer pads a 2 KB buffer with zero bytes when a
  // multi-byte letter (ż, ł, …) straddles its end (fixed only in React 19).
  const html = renderToString(
    <DocumentContext.Provider value={{ nonce, inlineCss: siteCss() }}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </DocumentContext.Provider>,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  applySecurityHeaders(responseHeaders, nonce);
  return new Response(`<!DOCTYPE html>${html}`, { headers: responseHeaders, status: responseStatusCode });
}

export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  applySecurityHeaders(response.headers);
  if (isPastorPath(new URL(request.url).pathname)) response.headers.set("Cache-Control", PRIVATE_CACHE);
  return response;
};

export function handleError(error: unknown, { request }: { request: Request }) {
  // Refused requests (404, 405, …) are answers, not faults.
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  // The stack stays in the server log; visitors see the Polish error page.
  logger.error({ err: error, method: request.method, path: new URL(request.url).pathname }, "request failed");
}
