// Loaded with `node --require ./server/observe.cjs` in front of remix-serve.
//
// remix-serve is the server this project uses. It has no hooks, so this
// preload takes over two of its middleware slots when it loads them:
// - compression (its first middleware) is wrapped: every response, static
//   files included, gets a request id, one JSON log line (method, path,
//   status, duration) and the security headers the app did not set itself;
//   an address that cannot be decoded (`/aktualnosci/%E0%A4%A`) gets a
//   Polish page instead of Express's English "Bad Request";
// - morgan's text log is replaced by nothing (the JSON line says it all).
"use strict";
const crypto = require("node:crypto");
const Module = require("node:module");
const pino = require("pino");

const log = pino({ base: undefined, timestamp: pino.stdTimeFunctions.isoTime, level: process.env.LOG_LEVEL || "info" });
const production = process.env.NODE_ENV === "production";

const BAD_ADDRESS_PAGE = `<!DOCTYPE html><html lang="pl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Nie znaleziono strony – Kościół Zielonoświątkowy w Wieliczce</title></head><body><main><h1>Nie znaleziono strony</h1><p>Adres jest nieprawidłowy.</p><p><a href="/">Wróć na stronę główną</a></p></main></body></html>`;

// Documents get a fuller policy with a nonce from app/entry.server.tsx;
// anything else (files, redirects, JSON) may load nothing and be framed nowhere.
const DEFAULT_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
  "X-Frame-Options": "DENY",
  ...(production ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
};

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

function observe(req, res, next) {
  const started = process.hrtime.bigint();
  const incoming = req.headers["x-request-id"];
  const id = typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
  // Only the path: query strings may carry tokens.
  const path = (req.url || "/").split("?")[0].slice(0, 300);

  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    for (const [name, value] of Object.entries(DEFAULT_HEADERS)) {
      if (!res.hasHeader(name)) res.setHeader(name, value);
    }
    res.setHeader("X-Request-Id", id);
    return writeHead.apply(this, args);
  };
  res.on("finish", () => {
    const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10;
    log.info({ reqId: id, method: req.method, path, status: res.statusCode, durationMs }, "request");
  });

  try {
    decodeURIComponent(path);
  } catch {
    res.statusCode = 404;
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Cache-Control", "no-store");
    res.end(BAD_ADDRESS_PAGE);
    return;
  }
  next();
}

const fromRemixServe = (parent) => Boolean(parent) && /[\\/]@remix-run[\\/]serve[\\/]/.test(parent.filename);
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (fromRemixServe(parent)) {
    if (request === "morgan") return () => (_req, _res, next) => next();
    if (request === "compression") {
      const compression = load.apply(this, arguments);
      return (options) => {
        const compress = compression(options);
        return (req, res, next) => observe(req, res, () => compress(req, res, next));
      };
    }
  }
  return load.apply(this, arguments);
};
