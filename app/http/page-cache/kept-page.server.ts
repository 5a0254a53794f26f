// A page as the cache keeps it (headers that every visitor may share, the
// body plain and gzipped), and how a kept page is answered.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import zlib from "node:zlib";
import { etagMatches, publicCacheControl } from "~/http/cache.server";
import { withScriptHashes } from "~/http/security-headers.server";

export interface KeptPage {
  /** The content key it was rendered under. */
  version: string;
  key: string;
  headers: OutgoingHttpHeaders;
  etag: string | undefined;
  body: Buffer;
  gzip: Buffer;
  /** What it takes of the cache's memory. */
  bytes: number;
}

// What Remix and Express would print or answer differently by; never kept.
const PER_RESPONSE = new Set([
  "connection",
  "content-encoding",
  "content-length",
  "date",
  "keep-alive",
  "set-cookie",
  "transfer-encoding",
  "x-request-id",
]);

/** Whether a rendered answer may be kept and given to others: a 200 the app marked public, setting no cookie. */
export function isShareable(status: number, headers: OutgoingHttpHeaders, hostInPages: boolean): boolean {
  return (
    status === 200 &&
    headers["cache-control"] === publicCacheControl(hostInPages) &&
    headers["set-cookie"] === undefined &&
    headers["content-encoding"] === undefined
  );
}

/**
 * A shareable answer as kept. It carries no nonce: a nonce that every
 * visitor can read protects nothing. Its policy names its inline scripts by
 * their SHA-256 instead (withScriptHashes), the same for every visitor.
 */
export function keptPage(rendered: Buffer, all: OutgoingHttpHeaders, key: string, version: string): KeptPage {
  let body = rendered;
  const policy = all["content-security-policy"];
  if (typeof policy === "string") {
    const hashed = withScriptHashes(body, policy);
    body = hashed.html;
    all["content-security-policy"] = hashed.policy;
  }
  const headers: OutgoingHttpHeaders = {};
  let headerBytes = 0;
  for (const [name, value] of Object.entries(all)) {
    if (PER_RESPONSE.has(name) || value === undefined) continue;
    headers[name] = value;
    headerBytes += name.length + String(value).length;
  }
  const gzip = zlib.gzipSync(body);
  return {
    version,
    key,
    headers,
    etag: typeof all.etag === "string" ? all.etag : undefined,
    body,
    gzip,
    bytes: body.length + gzip.length + headerBytes + key.length,
  };
}

function acceptsGzip(header: string | string[] | undefined): boolean {
  if (typeof header !== "string") return false;
  return header.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (coding.trim() !== "gzip" && coding.trim() !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return !q || Number(q.slice(2)) > 0;
  });
}

/** Answers with a kept page: a 304 when the browser has it, else gzipped when accepted. */
export function sendKeptPage(page: KeptPage, req: IncomingMessage, res: ServerResponse, method: string) {
  for (const [name, value] of Object.entries(page.headers)) {
    if (value !== undefined) res.setHeader(name, value);
  }
  res.setHeader("Vary", "Accept-Encoding");
  const ifNoneMatch = req.headers["if-none-match"];
  if (page.etag && etagMatches(Array.isArray(ifNoneMatch) ? ifNoneMatch.join(",") : ifNoneMatch, page.etag)) {
    res.writeHead(304);
    res.end();
    return;
  }
  const body = acceptsGzip(req.headers["accept-encoding"]) ? page.gzip : page.body;
  if (body === page.gzip) res.setHeader("Content-Encoding", "gzip");
  res.setHeader("Content-Length", body.length);
  res.writeHead(200);
  res.end(method === "HEAD" ? undefined : body);
}
