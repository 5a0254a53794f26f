// Helpers for the npm scripts; plain Node so they run before `npm install`.
import { execSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const mtime = (p) => {
  try {
    return fs.statSync(path.join(root, p)).mtimeMs;
  } catch {
    return 0;
  }
};

function newestIn(dir) {
  let newest = 0;
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else newest = Math.max(newest, fs.statSync(p).mtimeMs);
    }
  };
  if (fs.existsSync(path.join(root, dir))) walk(path.join(root, dir));
  return newest;
}

export function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", ...options });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** Whether every devDependency of the package in `dir` is in its node_modules. */
function devDependenciesInstalled(dir) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, dir, "package.json"), "utf8"));
  return Object.keys(pkg.devDependencies ?? {}).every((name) =>
    fs.existsSync(path.join(root, dir, "node_modules", name, "package.json")),
  );
}

/**
 * `npm ci` when node_modules is missing or older than the lockfile, in the
 * app's folder or in a package of its own beside it (`bench`).
 *
 * `production`: serving is enough (`npm start`). A fresh clone then installs
 * with `--omit=dev`: the dependencies, the build tools among them, without
 * what only the tests, lint and type check need; an install that already has
 * those keeps them. Otherwise an install without the devDependencies (one
 * `npm start` made) is completed by a full `npm ci`.
 */
export function ensureDependencies(dir = ".", { production = false } = {}) {
  const installed = mtime(path.join(dir, "node_modules/.package-lock.json"));
  const current = installed > 0 && installed >= mtime(path.join(dir, "package-lock.json"));
  const everything = installed > 0 && devDependenciesInstalled(dir);
  if (current && (production || everything)) return;
  const where = dir === "." ? "" : ` w ${dir}/`;
  // --include=dev: a shell's NODE_ENV=production would otherwise leave them out too.
  const only = production && !everything ? "--omit=dev" : "--include=dev";
  console.log(`Instalowanie zależności (npm ci ${only}${where})…`);
  run("npm", ["ci", only, "--no-audit", "--no-fund"], { cwd: path.join(root, dir) });
}

/** Builds (server and commands) when the build is missing or any source is newer than it. */
export function ensureBuild() {
  // build/cli.js is written last, so its absence also means an unfinished build.
  const built = Math.min(mtime("build/index.js"), mtime("build/cli.js"));
  const sources = Math.max(
    newestIn("app"),
    newestIn("public"),
    newestIn("scripts"),
    mtime("remix.config.js"),
    mtime("package-lock.json"),
  );
  if (built && built >= sources) return;
  console.log("Budowanie aplikacji…");
  run("npm", ["run", "-s", "build"]);
}

export function commandExists(cmd) {
  try {
    execSync(`command -v ${cmd}`, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}
