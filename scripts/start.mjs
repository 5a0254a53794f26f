#!/usr/bin/env node
// `npm start` on a fresh clone: install what is missing, build when sources
// changed, then serve. Migrations, seeding and the demo account happen in the
// server itself at start (only one process may open the embedded database).
import { spawnSync } from "node:child_process";
import { ensureBuild, ensureDependencies, root } from "./lib.mjs";

// Only what serving needs on a fresh clone (`npm test` adds the rest).
ensureDependencies(".", { production: true });
ensureBuild();
const result = spawnSync(
  process.execPath,
  ["server/index.mjs"],
  // Fewer malloc arenas, and a fixed mmap threshold (photo-sized buffers go
  // back to the system when freed), keep memory flat while sharp works.
  {
    cwd: root,
    stdio: "inherit",
    env: { NODE_ENV: "production", MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072", ...process.env },
  },
);
process.exit(result.status ?? 1);
