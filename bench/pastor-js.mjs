// JavaScript each pastor page loads, gzipped (level 9). A hydrated page loads
// what its HTML preloads, from the browser build's manifest: the document's
// entry, the root and layout routes and the page's own route with every chunk
// they import (a chunk loaded later by `import()` is not counted). A page that
// is not hydrated (its route's `handle`, app/root.tsx) loads only its own
// plain script (public/build/browser-scripts.json) and the small inline
// script of the public pages. The floor is what every hydrated pastor page
// loads before its own code: the entry's chunks (React, React DOM, Remix's
// runtime) and the root and layout routes.
//
//   npm run build && node bench/pastor-js.mjs
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { tsImport } from "tsx/esm/api";

const root = path.resolve(import.meta.dirname, "..");
const build = path.join(root, "public", "build");
const manifestFile = fs.readdirSync(build).find((f) => f.startsWith("manifest-"));
if (!manifestFile) throw new Error("No build: run `npm run build` first.");
const text = fs.readFileSync(path.join(build, manifestFile), "utf8");
const manifest = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
const scripts = JSON.parse(fs.readFileSync(path.join(build, "browser-scripts.json"), "utf8"));
// The routes' handles, as the server reads them (importing the server build starts nothing).
const { routes: serverRoutes } = await import(path.join(root, "build", "index.js"));
const { PUBLIC_SCRIPT } = await tsImport("../app/lib/public-script.ts", import.meta.url);
const gzip = (buffer) => zlib.gzipSync(buffer, { level: 9 }).length;
const gz = (file) => gzip(fs.readFileSync(path.join(root, "public", file)));

/** What decides a page's code: the deepest route saying `hydrate`, and a script named on the way. */
function pageCode(id) {
  let hydrate = false;
  let script = null;
  const chain = [];
  for (let r = manifest.routes[id]; r; r = manifest.routes[r.parentId]) chain.unshift(r.id);
  for (const routeId of chain) {
    const handle = serverRoutes[routeId]?.module.handle;
    if (handle?.hydrate !== undefined) hydrate = handle.hydrate;
    if (handle?.script) script = handle.script;
  }
  return { hydrate, script: hydrate ? null : script };
}

/** Every file a hydrated route needs, with its parents up to the root. */
function filesOf(id) {
  const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (let r = manifest.routes[id]; r; r = manifest.routes[r.parentId]) {
    files.add(r.module);
    for (const f of r.imports ?? []) files.add(f);
  }
  return files;
}

// Pages only: resource routes (the upload routes, sign-out) render nothing.
const pages = Object.keys(manifest.routes)
  .filter((id) => id.startsWith("routes/strefapastora.") && serverRoutes[id]?.module.default)
  .sort();
const sizes = new Map();
const size = (f) => sizes.get(f) ?? sizes.set(f, gz(f)).get(f);
const sum = (files) => [...files].reduce((n, f) => n + size(f), 0);
const kb = (n) => (n / 1024).toFixed(1).padStart(6);
const runtime = sum([manifest.entry.module, ...manifest.entry.imports]);
const floor = sum(filesOf("routes/strefapastora"));
const inline = gzip(Buffer.from(PUBLIC_SCRIPT));
console.log(`entry (React, React DOM, Remix):          ${kb(runtime)} KB gzip`);
console.log(`floor (+ root and pastor layout routes):  ${kb(floor)} KB gzip\n`);
console.log("page                                              total KB  above the floor");
for (const id of pages) {
  const { hydrate, script } = pageCode(id);
  const name = id.slice("routes/".length).padEnd(48);
  if (hydrate) {
    const total = sum(filesOf(id));
    console.log(`${name} ${kb(total)}    ${kb(total - floor)}`);
  } else if (script) {
    const total = size(scripts[script]) + inline;
    console.log(`${name} ${kb(total)}    not hydrated: ${scripts[script]} + the inline public script`);
  }
}
process.exit(0);
