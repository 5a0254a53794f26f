import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isIP, type Socket } from "node:net";
import { pinoHttp } from "pino-http";
import { canonicalRedirect } from "~/http/canonical.server";
import { FALLBACK_PAGES } from "~/http/fallback-pages.server";
import { firstEntry, parseHost } from "~/http/host.server";
import { pageCache } from "~/http/page-cache.server";
import { pastorDoor } from "~/http/pastor-door.server";
import { baseSecurityHeaders } from "~/http/security-headers.server";
import { requestContext } from "~/http/request-context.server";
import { config } from "~/services/config.server";
import { logger } from "~/services/logger.server";

/**
 * What every request meets before remix-serve's Express app (installed by
 * server/index.mjs, the one place that knows how remix-serve is built):
 * - a request id (X-Request-Id) and one JSON log line when it ends, with
 *   method, path (never the query: it may carry tokens), status and duration;
 * - the security headers the app did not set itself, on every response,
 *   static files and redirects included;
 * - a Polish page for an address that cannot be decoded (Express would
 *   answer in English), and a Polish 400 for a Host a browser would never
 *   send (Remix would throw on it: a 500 with a stack);
 * - X-Forwarded-Host only from our own proxy (TRUST_PROXY=1): otherwise it
 *   is removed, so no client can choose the host that pages print;
 * - a Polish 403 page for a write whose Origin names another host (Remix
 *   would throw on it and answer 500, logging a stack as an error);
 * - the client's address, handed to the app through requestContext;
 * - a 301 from any other spelling of an address to its canonical one, so
 *   the page cache keeps each page once;
 * - the page cache: anonymous views of public pages served from memory;
 * - the pastor area's answers while the database is away (pastor-door.server.ts).
 * - the rest of a request body the app did not read (a refused upload) is
 *   read and thrown away, so the browser shows the answer.
 */

type Next = () => void;

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The same test as Remix's own for document writes: an Origin header that
 * is not the host the request was sent to (X-Forwarded-Host's first entry,
 * else Host). "null" and unparsable origins count as foreign, as in Remix.
 */
function isCrossSiteWrite(req: IncomingMessage): boolean {
  if (!WRITES.has(req.method ?? "")) return false;
  const origin = req.headers.origin;
  if (!origin) return false;
  const host = firstEntry(req.headers["x-forwarded-host"]) || req.headers.host;
  try {
    return origin === "null" || !host || new URL(origin).host !== host;
  } catch {
    return true;
  }
}

const pathOf = (req: IncomingMessage) => (req.url || "/").split("?")[0].slice(0, 300);

const line = (req: IncomingMessage, res: ServerResponse, durationMs: number) => ({
  method: req.method,
  path: pathOf(req),
  status: res.statusCode,
  durationMs,
});

const accessLog = pinoHttp({
  logger,
  genReqId(req, res) {
    const incoming = req.headers["x-request-id"];
    const id = typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader("X-Request-Id", id);
    return id;
  },
  // One line when the response ends, with only the request id bound and these fields.
  quietReqLogger: true,
  quietResLogger: true,
  customAttributeKeys: { reqId: "reqId" },
  customLogLevel: () => "info",
  customSuccessMessage: () => "request",
  customErrorMessage: () => "request",
  customSuccessObject: (req, res, val: { responseTime: number }) => line(req, res, val.responseTime),
  customErrorObject: (req, res, _error, val: { responseTime: number }) => line(req, res, val.responseTime),
});

/** The address sign-in limits count: the socket's, or the entry our own proxy appended when TRUST_PROXY says one does. */
export function clientAddressOf(req: IncomingMessage, trustProxy = config().trustProxy): string {
  const socket = unmapped(req.socket.remoteAddress ?? "");
  if (!trustProxy) return socket || "unknown";
  const forwarded = req.headers["x-forwarded-for"];
  const entries = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? "")).split(",");
  const last = unmapped(entries[entries.length - 1].trim());
  return isIP(last) ? last : socket || "unknown";
}

// IPv4 clients of a dual-stack socket appear as ::ffff:1.2.3.4.
const unmapped = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");

/** Sets the headers the app left unset, just before the response head goes out. */
function withDefaultHeaders(res: ServerResponse) {
  const writeHead = res.writeHead;
  const defaults = baseSecurityHeaders();
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    for (const [name, value] of Object.entries(defaults)) {
      if (!this.hasHeader(name)) this.setHeader(name, value);
    }
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
}

// A refused body is read this far (beyond the largest upload the app takes);
// a client that sends more loses its connection.
export const DRAIN_MAX_BYTES = 256 * 1024 * 1024;

type ServerSocket = Socket & { server?: { keepAliveTimeout?: number } };

/**
 * A post refused before its body is read (a bad form token, too large, the
 * wrong type) is answered while the browser is still sending; a browser
 * whose upload is cut off shows a reset connection, not the answer. So:
 * - the app's giving up on the body (Remix's stream of it cancelled, which
 *   destroys the request and its connection) waits until the answer is out;
 * - then the rest of the body is read and dropped, up to `maxBytes`
 *   (beyond that the connection is closed), and only then does a
 *   `Connection: close` exchange end the connection.
 * Node's limit on receiving a whole request (requestTimeout) still applies.
 */
export function finishReadingBody(req: IncomingMessage, res: ServerResponse, maxBytes = DRAIN_MAX_BYTES) {
  const socket = req.socket as ServerSocket;
  const destroy = req.destroy;
  const destroySoon = socket.destroySoon;
  const restore = () => {
    req.destroy = destroy;
    socket.destroySoon = destroySoon;
  };
  req.destroy = function (this: IncomingMessage, error?: Error) {
    if (!res.writableFinished && !socket.destroyed) return this;
    return destroy.call(this, error);
  } as IncomingMessage["destroy"];
  socket.destroySoon = function (this: Socket) {
    if (req.complete || socket.destroyed) return destroySoon.call(this);
    req.once("end", () => destroySoon.call(socket));
  };
  res.once("finish", () => {
    // All of it arrived (or none is coming): nothing on the wire to wait for.
    if (req.complete || req.destroyed || socket.destroyed) return restore();
    req.destroy = destroy;
    // The app is done with the request: its readers go, a counter takes over.
    req.removeAllListeners("data");
    let drained = 0;
    req.on("data", (chunk: Buffer) => {
      drained += chunk.byteLength;
      if (drained > maxBytes) req.destroy();
    });
    req.once("end", () => {
      socket.destroySoon = destroySoon;
      // Back to waiting for the next request on this connection.
      if (!socket.destroyed) socket.setTimeout((socket.server?.keepAliveTimeout ?? 5000) + 1000);
    });
    // The keep-alive timer Node started does not see the bytes read here.
    socket.setTimeout(0);
    req.resume();
  });
}

function answer(res: ServerResponse, status: number, page: string) {
  res.statusCode = status;
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.end(page);
}

/** Handles a request before remix-serve's app does; `next` hands it on. */
export function frontDoor(req: IncomingMessage, res: ServerResponse, next: Next) {
  accessLog(req, res);
  withDefaultHeaders(res);
  finishReadingBody(req, res);
  try {
    decodeURIComponent(pathOf(req));
  } catch {
    return answer(res, 404, FALLBACK_PAGES.badAddress);
  }
  if (!config().trustProxy) delete req.headers["x-forwarded-host"];
  const forwardedHost = req.headers["x-forwarded-host"];
  if (!parseHost(req.headers.host) || (forwardedHost !== undefined && !parseHost(firstEntry(forwardedHost)))) {
    return answer(res, 400, FALLBACK_PAGES.badHost);
  }
  const canonical = canonicalRedirect(req.method, req.url);
  if (canonical !== null) {
    res.statusCode = 301;
    res.setHeader("Location", canonical);
    res.setHeader("Cache-Control", "public, max-age=3600");
    return res.end();
  }
  if (isCrossSiteWrite(req)) {
    logger.warn(
      { method: req.method, path: pathOf(req), origin: String(req.headers.origin).slice(0, 200) },
      "cross-site post refused",
    );
    // Node reads and discards the unread body after the answer, so the browser sees this page.
    return answer(res, 403, FALLBACK_PAGES.crossSite);
  }
  requestContext.run({ clientAddress: clientAddressOf(req) }, () => {
    pageCache()
      .handle(req, res, () => pastorDoor(req, res, next))
      .catch((error: unknown) => {
        logger.error({ err: error }, "page cache failed");
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
}
