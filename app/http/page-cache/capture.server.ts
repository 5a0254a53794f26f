// Rendering a page into memory: the response's writes are collected instead
// of sent, so the cache can keep the whole page before it answers.
import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Lets `next` render the page as a full GET (no conditional headers, no
 * compression: the cache compresses once and answers conditional requests
 * itself; a HEAD renders as a GET to fill the cache), collecting what it
 * writes. When it ends, the request and response are as they were and
 * `rendered` gets the body and the request's own method; it answers with
 * the response's own methods.
 */
export function renderIntoMemory(
  req: IncomingMessage,
  res: ServerResponse,
  next: () => void,
  rendered: (body: Buffer, method: string) => void,
) {
  const method = req.method!;
  const conditional = {
    "if-none-match": req.headers["if-none-match"],
    "if-modified-since": req.headers["if-modified-since"],
  };
  const acceptEncoding = req.headers["accept-encoding"];
  delete req.headers["if-none-match"];
  delete req.headers["if-modified-since"];
  delete req.headers["accept-encoding"];
  req.method = "GET";

  const chunks: Buffer[] = [];
  const collect = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return;
    if (typeof chunk === "string") chunks.push(Buffer.from(chunk, (encoding as BufferEncoding) || "utf8"));
    else chunks.push(Buffer.from(chunk as Uint8Array));
  };
  const own = { writeHead: res.writeHead, write: res.write, end: res.end };
  res.writeHead = function (status: number, ...rest: unknown[]) {
    res.statusCode = status;
    const headers = rest.find((r) => typeof r === "object" && r !== null);
    if (headers && !Array.isArray(headers)) {
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value as string);
    }
    return res;
  } as ServerResponse["writeHead"];
  res.write = function (chunk: unknown, encoding?: unknown, callback?: unknown) {
    collect(chunk, encoding);
    const cb = [encoding, callback].find((a) => typeof a === "function") as (() => void) | undefined;
    cb?.();
    return true;
  } as ServerResponse["write"];
  res.end = function (chunk?: unknown, encoding?: unknown, callback?: unknown) {
    collect(chunk, encoding);
    Object.assign(res, own);
    req.method = method;
    Object.assign(req.headers, conditional);
    if (acceptEncoding !== undefined) req.headers["accept-encoding"] = acceptEncoding;
    else delete req.headers["accept-encoding"];
    rendered(Buffer.concat(chunks), method);
    const cb = [chunk, encoding, callback].find((a) => typeof a === "function") as (() => void) | undefined;
    if (cb) res.once("finish", cb);
    return res;
  } as ServerResponse["end"];

  next();
}
