// Loaded with `node --require ./server/observe.cjs` in front of remix-serve.
//
// remix-serve is the server this project uses, but its request logger is
// morgan's one-line text format, and Express's router answers a malformed
// address (`/aktualnosci/%E0%A4%A`) with an English "Bad Request" page.
// This preload puts its own middleware in morgan's place (the slot right
// before Remix's handler): one JSON line per request with a request id,
// method, path, status and duration, and a Polish page for addresses that
// cannot be decoded. Nothing else of remix-serve changes.
"use strict";
const crypto = require("node:crypto");
const Module = require("node:module");
const pino = require("pino");

const log = pino({ base: undefined, timestamp: pino.stdTimeFunctions.isoTime, level: process.env.LOG_LEVEL || "info" });

const BAD_ADDRESS_PAGE = `<!DOCTYPE html><html lang="pl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Nie znaleziono strony – Kościół Zielonoświątkowy w Wieliczce</title></head><body><main><h1>Nie znaleziono strony</h1><p>Adres jest nieprawidłowy.</p><p><a href="/">Wróć na stronę główną</a></p></main></body></html>`;

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

function requestMiddleware(req, res, next) {
  const started = process.hrtime.bigint();
  const incoming = req.headers["x-request-id"];
  const id = typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
  res.setHeader("X-Request-Id", id);
  // Only the path: query strings may carry tokens.
  const rawPath = (req.originalUrl || req.url || "/").split("?")[0].slice(0, 300);
  res.on("finish", () => {
    const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
    log.info({ reqId: id, method: req.method, path: rawPath, status: res.statusCode, durationMs: Math.round(durationMs * 10) / 10 }, "request");
  });
  try {
    decodeURIComponent(rawPath);
  } catch {
    res.status(404);
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.end(BAD_ADDRESS_PAGE);
    return;
  }
  next();
}

const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === "morgan" && parent && /[\\/]@remix-run[\\/]serve[\\/]/.test(parent.filename)) {
    return () => requestMiddleware;
  }
  return load.apply(this, arguments);
};
