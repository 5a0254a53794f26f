// JavaScript each pastor page loads, gzipped (level 9), from the build's
// manifest: the document's entry, the root and layout routes and the page's
// own route with every chunk they import. The largest shared chunk (React,
// React DOM and Remix's router, the same on every page and cached after the
// first) is shown apart from what the page adds.
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
// The runtime: the largest chunk every pastor page shares.
const shared = [...filesOf(pages[0])].filter((f) => pages.every((p) => filesOf(p).has(f)));
const runtime = shared.reduce((a, b) => (size(a) >= size(b) ? a : b));
const kb = (n) => (n / 1024).toFixed(1).padStart(6);
console.log(`runtime chunk (React, React DOM, Remix): ${kb(size(runtime))} KB gzip, shared by every page\n`);
console.log("page                                              total KB  of which the page's own");
for (const id of pages) {
  const files = [...filesOf(id)];
  const total = files.reduce((n, f) => n + size(f), 0);
  console.log(`${id.slice("routes/".length).padEnd(48)} ${kb(total)}    ${kb(total - size(runtime))}`);
}
