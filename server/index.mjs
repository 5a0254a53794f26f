#!/usr/bin/env node
// The one way the site is started (npm start, the Docker image, the tests
// and the benchmarks all run `node server/index.mjs`). The production server
// is @remix-run/serve, which has no hooks; this module is the one place that
// knows how it is built, and tests/faults/launch.test.ts fails if it changes:
//
// 1. The server build is imported exactly as remix-serve imports it (its
//    `?t=<mtime>` address), so both use one module instance, and its boot()
//    runs to the end (configuration, migrations, demo content, accounts)
//    before any port is opened. A failed start exits 1 with the reason.
// 2. morgan, remix-serve's text access log, is replaced through
//    require.cache by a no-op: the app writes one JSON line per request.
// 3. http.createServer is wrapped for the one server remix-serve creates, so
//    that every request meets the app's frontDoor (request id and log line,
//    security headers, the bad-address page, the client's address) before
//    Express.
// 4. On SIGTERM or SIGINT remix-serve stops accepting connections; once the
//    last request has been answered the app's shutdown() closes the database
//    and the process exits 0 (10 s at most), through close-with-grace.
import fs from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import closeWithGrace from "close-with-grace";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const serveCli = require.resolve("@remix-run/serve/dist/cli.js");
const buildPath = path.join(root, "build", "index.js");

process.env.NODE_ENV ??= "production";
process.chdir(root); // remix-serve serves ./public relative to the working folder

if (!fs.existsSync(buildPath)) {
  console.error(`No server build at ${buildPath}: run \`npm run build\` first.`);
  process.exit(1);
}

// (1) The address remix-serve's reimportServer() uses for the build.
const buildUrl = `${pathToFileURL(buildPath).href}?t=${fs.statSync(buildPath).mtimeMs}`;
const build = await import(buildUrl);
const app = build.entry.module;

try {
  await app.boot();
} catch (error) {
  // Configuration, an unreachable database: the message says it all.
  // Anything else is a bug and keeps its stack.
  const expected = error instanceof app.BootError || error instanceof app.ConfigError;
  console.error(`Start failed: ${expected ? error.message : (error?.stack ?? error)}`);
  process.exit(1);
}

// (2) remix-serve's require("morgan") finds this entry first.
const morganPath = createRequire(serveCli).resolve("morgan");
require.cache[morganPath] = {
  id: morganPath,
  filename: morganPath,
  loaded: true,
  exports: () => (_req, _res, next) => next(),
};

// (3) The next server created is remix-serve's Express app.
const KEEP_ALIVE_MS = 65_000;
let server;
const createServer = http.createServer;
http.createServer = function (...args) {
  http.createServer = createServer;
  const i = args.findIndex((a) => typeof a === "function");
  const express = args[i];
  args[i] = (req, res) => app.frontDoor(req, res, () => express(req, res));
  server = createServer.apply(this, args);
  // An idle connection is kept 65 s, not Node's 5: a client or a proxy that
  // sends on a kept connection just as the server drops it gets a reset
  // instead of an answer, and load balancers keep theirs open about 60 s.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1000;
  return server;
};

// (4) remix-serve closes the HTTP server on these signals; we wait for it.
closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) console.error(err);
  if (server?.listening) {
    await new Promise((resolve) => {
      server.once("close", resolve);
      // remix-serve calls server.close() on SIGTERM/SIGINT; on a crash we do.
      if (!signal) server.close();
    });
  }
  await app.shutdown();
});

process.argv = [process.argv[0], serveCli, buildPath];
require(serveCli);
