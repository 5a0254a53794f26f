// Bundles the operator's commands (scripts/zbor.ts) into build/cli.js, next
// to the server build, so the production image runs them without TypeScript
// or dev dependencies. Every package stays external: the image's
// node_modules holds the production dependencies (native ones among them).
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { root } from "./lib.mjs";

const outfile = path.join(root, "build", "cli.js");

await build({
  entryPoints: [path.join(root, "scripts", "zbor.ts")],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  alias: { "~": path.join(root, "app") },
  banner: { js: "#!/usr/bin/env node" },
  logLevel: "warning",
});
fs.chmodSync(outfile, 0o755);
