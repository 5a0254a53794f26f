import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer, isRouteErrorResponse } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { church } from "~/content/church";
import { DatabaseUnavailableError } from "~/services/db.server";
import { PRIVATE_CACHE, cacheControlFor, documentEtag, isNotModified } from "~/http/cache.server";
import { yearIn } from "~/lib/text";
import { siteCss } from "~/http/inline-css.server";
import { DocumentContext } from "~/lib/document-context";
import { applySecurityHeaders, createNonce } from "~/http/security-headers.server";
import { currentContentVersion } from "~/services/content-version.server";
import { logger } from "~/services/logger.server";
import { unavailableResponse } from "~/http/unavailable.server";
import { isPastorPath } from "~/lib/paths";

// What server/index.mjs calls: start-up before serving, shutdown after the
// last request, and the handler in front of remix-serve's Express app.
export { boot, shutdown } from "~/boot/boot.server";
export { frontDoor } from "~/http/front-door.server";

// Requests that met an unreachable database (see handleError): answered 503.
const unavailable = new WeakSet<Request>();

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  if (unavailable.has(request)) return unavailableResponse();
  const cacheControl = cacheControlFor(request, responseStatusCode, responseHeaders);
  responseHeaders.set("Cache-Control", cacheControl);
  if (cacheControl !== PRIVATE_CACHE && cacheControl !== "no-store" && responseStatusCode < 500) {
    const version = await currentContentVersion();
    const etag = documentEtag(request, responseStatusCode, remixContext, version, String(yearIn(church.timeZone)));
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
  if (unavailable.has(request)) return unavailableResponse();
  applySecurityHeaders(response.headers);
  if (isPastorPath(new URL(request.url).pathname)) response.headers.set("Cache-Control", PRIVATE_CACHE);
  return response;
};

export function handleError(error: unknown, { request }: { request: Request }) {
  // Refused requests (404, 405, …) are answers, not faults.
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  // An outage, not a bug: withDb has logged it; the answer becomes a 503.
  if (error instanceof DatabaseUnavailableError) {
    unavailable.add(request);
    return;
  }
  // The stack stays in the server log; visitors see the Polish error page.
  logger.error({ err: error, method: request.method, path: new URL(request.url).pathname }, "request failed");
}
