// Bundles the plain scripts of pages that are not hydrated (app/lib/browser-scripts.ts)
// into public/build/, after `remix build` (which empties that folder): one
// minified ES module each, named by a hash of its content (files under
// /build/ are served as immutable for a year), and public/build/browser-scripts.json
// mapping each name to its address, which the server reads (app/http/browser-scripts.server.ts).
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { root } from "./lib.mjs";

const entries = {
  "album-editor": "app/features/galleries/editor/album-script.ts",
  "article-form": "app/features/articles/article-script.ts",
};

const outdir = path.join(root, "public", "build");
const result = await build({
  entryPoints: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, path.join(root, file)])),
  outdir,
  entryNames: "[name]-[hash]",
  bundle: true,
  splitting: false,
  format: "esm",
  platform: "browser",
  // Phones of the last few years; nothing older than ES2019 is produced.
  target: ["es2019", "chrome90", "safari14", "firefox90"],
  minify: true,
  alias: { "~": path.join(root, "app") },
  metafile: true,
  // The metafile names entry points relative to this folder, as `entries` does.
  absWorkingDir: root,
  logLevel: "warning",
});

const manifest = {};
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  const name = Object.keys(entries).find((n) => output.entryPoint === entries[n]);
  if (name) manifest[name] = `/build/${path.basename(file)}`;
}
fs.writeFileSync(path.join(outdir, "browser-scripts.json"), `${JSON.stringify(manifest, null, 2)}\n`);
