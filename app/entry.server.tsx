import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer, isRouteErrorResponse } from "@remix-run/react";
// The web-streams renderer: it encodes text before buffering it, so it never
// splits a multi-byte letter (the Node one of React 18 pads its 2 KB buffers
// with zero bytes when a letter such as ż straddles their end).
import { renderToReadableStream } from "react-dom/server.browser";
import { church } from "~/content/church";
import { DatabaseUnavailableError } from "~/services/db.server";
import { PRIVATE_CACHE, cacheControlFor, documentEtag, isNotModified } from "~/http/cache.server";
import { yearIn } from "~/lib/text";
import { browserScripts } from "~/http/browser-scripts.server";
import { stylesheetText } from "~/http/inline-css.server";
import { DocumentContext } from "~/lib/document-context";
import { PUBLIC_SCRIPT } from "~/lib/public-script";
import { applySecurityHeaders, createNonce } from "~/http/security-headers.server";
import { contentKey } from "~/services/content-version.server";
import { logger } from "~/services/logger.server";
import { unavailableResponse } from "~/http/unavailable.server";
import { markDatabaseUnavailable, setFieldLabels } from "~/http/pastor-door.server";
import { FACT_LABELS } from "~/features/church/facts";
import { DAY_LABELS, EVENT_LABELS } from "~/features/events/event-fields";
import { TESTIMONY_LABELS } from "~/features/church/testimonies";
import {
  LOGIN_PATH,
  PASTOR_ARTICLES_PATH,
  PASTOR_EVENTS_PATH,
  PASTOR_FACTS_PATH,
  PASTOR_HISTORY_PHOTOS_PATH,
  PASTOR_TESTIMONIES_PATH,
  TWO_FACTOR_PATH,
  isPastorPath,
} from "~/lib/paths";

// What server/index.mjs calls: start-up before serving, shutdown after the
// last request, and the handler in front of remix-serve's Express app.
export { BootError, boot, shutdown } from "~/boot/boot.server";
export { ConfigError } from "~/services/config.server";
export { frontDoor } from "~/http/front-door.server";

// The 'not saved' page names the fields as their forms do, and shows their checkboxes as checkboxes.
setFieldLabels(PASTOR_FACTS_PATH, FACT_LABELS);
const eventDays = Object.entries(DAY_LABELS).map(([code, day]) => [`day-${code}`, `${EVENT_LABELS.days}: ${day}`]);
setFieldLabels(
  PASTOR_EVENTS_PATH,
  { ...EVENT_LABELS, ...Object.fromEntries(eventDays) },
  { checkboxes: ["allDay", ...eventDays.map(([name]) => name)] },
);
// Moving one date of an event: its own three fields, none of the event form's checkboxes.
setFieldLabels(`${PASTOR_EVENTS_PATH}/edytuj/*/termin`, {});
setFieldLabels(PASTOR_TESTIMONIES_PATH, TESTIMONY_LABELS, { checkboxes: ["hidden"] });
setFieldLabels(`${PASTOR_ARTICLES_PATH}/edytuj`, { changeImage: "Zmień zdjęcie" }, { checkboxes: ["changeImage"] });
setFieldLabels(PASTOR_HISTORY_PHOTOS_PATH, { name: "Opis zdjęcia" });
setFieldLabels(LOGIN_PATH, { email: "Login", password: "Hasło" });
setFieldLabels(TWO_FACTOR_PATH, { code: "Kod z aplikacji", codeOrPassword: "Kod z aplikacji lub hasło" });

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
    const version = await contentKey();
    const etag = documentEtag(request, responseStatusCode, remixContext, version, String(yearIn(church.timeZone)));
    responseHeaders.set("ETag", etag);
    if (isNotModified(request, etag)) {
      // Nothing rendered. No new CSP either: the stored copy keeps the
      // policy that names its scripts.
      return new Response(null, { status: 304, headers: responseHeaders });
    }
  }

  const nonce = createNonce();
  // Rendered whole before it is sent, not streamed: no page waits on
  // deferred data. Not renderToString either: with single fetch <Scripts>
  // writes the page's data through Suspense, which only a stream renders.
  // The client going away stops the render, but only while it runs: React
  // answers a later abort by closing its finished stream again, which throws
  // (seen when a client disconnects while the page is being sent).
  const rendering = new AbortController();
  const stop = () => rendering.abort(request.signal.reason);
  if (request.signal.aborted) stop();
  else request.signal.addEventListener("abort", stop, { once: true });
  let html: Buffer;
  try {
    const stream = await renderToReadableStream(
      <DocumentContext.Provider
        value={{ nonce, inlineCss: stylesheetText, publicScript: PUBLIC_SCRIPT, browserScripts: browserScripts() }}
      >
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </DocumentContext.Provider>,
      { nonce, signal: rendering.signal },
    );
    await stream.allReady;
    html = Buffer.from(await new Response(stream).arrayBuffer());
  } finally {
    request.signal.removeEventListener("abort", stop);
  }
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  applySecurityHeaders(responseHeaders, nonce);
  // React writes the doctype itself before a rendered <html>.
  const doctype = "<!DOCTYPE html>";
  const written = html.subarray(0, doctype.length).toString("latin1").toLowerCase() === doctype.toLowerCase();
  return new Response(written ? new Uint8Array(html) : Buffer.concat([Buffer.from(doctype), html]), {
    headers: responseHeaders,
    status: responseStatusCode,
  });
}

/**
 * Single fetch's data requests (`/path.data`, `/_root.data` for the home
 * page): still handed here by Remix 2.17 after the loaders or the action ran.
 */
export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  if (unavailable.has(request)) return unavailableResponse();
  applySecurityHeaders(response.headers);
  const page = new URL(request.url).pathname.replace(/\.data$/, "");
  if (isPastorPath(page)) response.headers.set("Cache-Control", PRIVATE_CACHE);
  return response;
};

export function handleError(error: unknown, { request }: { request: Request }) {
  // Refused requests (404, 405, …) are answers, not faults.
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  // An outage, not a bug: withDb has logged it; the answer becomes a 503.
  if (error instanceof DatabaseUnavailableError) {
    unavailable.add(request);
    // Under /strefapastora the front door answers it (the typed form kept).
    markDatabaseUnavailable();
    return;
  }
  // The stack stays in the server log; visitors see the Polish error page.
  logger.error({ err: error, method: request.method, path: new URL(request.url).pathname }, "request failed");
}
