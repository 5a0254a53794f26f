// A throwaway PostgreSQL cluster that a test owns and may stop and start.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { postgresRequired } from "../setup/database";

const BIN = (() => {
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  return versions.length ? path.join(root, versions[0], "bin") : null;
})();

/** The server binaries (Debian's postgresql package) are here; in CI they must be (see postgresRequired). */
export const clusterAvailable = (Boolean(BIN) && fs.existsSync(path.join(BIN ?? "", "pg_ctl"))) || postgresRequired;

/** Runs a command as the postgres user when we are root (initdb refuses root). */
function asPostgres(cmd: string, args: string[]) {
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) return execFileSync(cmd, args, { stdio: "pipe" });
  const quoted = [cmd, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  return execFileSync("su", ["postgres", "-s", "/bin/sh", "-c", quoted], { stdio: "pipe" });
}

export async function createCluster(port: number) {
  if (!BIN) throw new Error("PostgreSQL server binaries not found under /usr/lib/postgresql");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zbor-pg-"));
  if (process.getuid?.() === 0) execFileSync("chown", ["postgres:postgres", dir]);
  const data = path.join(dir, "data");
  asPostgres(path.join(BIN, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const pgCtl = path.join(BIN, "pg_ctl");
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const cluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start() {
      asPostgres(pgCtl, ["-D", data, "-o", opts, "-l", path.join(dir, "log"), "-w", "start"]);
    },
    stop() {
      asPostgres(pgCtl, ["-D", data, "-m", "fast", "-w", "stop"]);
    },
    destroy() {
      try {
        cluster.stop();
      } catch {}
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
