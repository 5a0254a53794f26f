// JavaScript each pastor page loads, gzipped (level 9), from the build's
// manifest: the document's entry, the root and layout routes and the page's
// own route with every chunk they import (the files the page's HTML
// preloads; a chunk loaded later by `import()` is not counted). The floor is
// what every pastor page loads before its own code: the entry's chunks
// (React, React DOM, Remix's runtime) and the root and layout routes.
//
//   npm run build && node bench/pastor-js.mjs
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const root = path.resolve(import.meta.dirname, "..");
const build = path.join(root, "public", "build");
const manifestFile = fs.readdirSync(build).find((f) => f.startsWith("manifest-"));
if (!manifestFile) throw new Error("No build: run `npm run build` first.");
const text = fs.readFileSync(path.join(build, manifestFile), "utf8");
const manifest = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
const gz = (file) => zlib.gzipSync(fs.readFileSync(path.join(root, "public", file)), { level: 9 }).length;

/** Every file a route needs, with its parents up to the root. */
function filesOf(id) {
  const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (let r = manifest.routes[id]; r; r = manifest.routes[r.parentId]) {
    files.add(r.module);
    for (const f of r.imports ?? []) files.add(f);
  }
  return files;
}

const pages = Object.keys(manifest.routes)
  .filter((id) => id.startsWith("routes/strefapastora."))
  .sort();
const sizes = new Map();
const size = (f) => sizes.get(f) ?? sizes.set(f, gz(f)).get(f);
const sum = (files) => [...files].reduce((n, f) => n + size(f), 0);
const kb = (n) => (n / 1024).toFixed(1).padStart(6);
const runtime = sum([manifest.entry.module, ...manifest.entry.imports]);
const floor = sum(filesOf("routes/strefapastora"));
console.log(`entry (React, React DOM, Remix):          ${kb(runtime)} KB gzip`);
console.log(`floor (+ root and pastor layout routes):  ${kb(floor)} KB gzip\n`);
console.log("page                                              total KB  above the floor");
for (const id of pages) {
  const total = sum(filesOf(id));
  console.log(`${id.slice("routes/".length).padEnd(48)} ${kb(total)}    ${kb(total - floor)}`);
}
