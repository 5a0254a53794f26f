// Throughput with wrk and server CPU per request, for the app and for nginx
// serving saved copies of the same HTML. CPU is read from /proc before and
// after each run: it is the one figure that stays meaningful on a shared,
// noisy machine, where req/s and latency depend on what else is running.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { cpuTicks, freePort, stopChild } from "./lib.mjs";

export const CLK_TCK = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

const UNIT_MS = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function toMs(text) {
  const m = /^([\d.]+)(us|ms|s|m|h)$/.exec(text);
  return m ? Number(m[1]) * UNIT_MS[m[2]] : NaN;
}

/** The figures of wrk's text output (with --latency). */
export function parseWrk(out) {
  const num = (re) => Number(re.exec(out)?.[1] ?? 0);
  const latency = (p) => toMs(new RegExp(`^\\s*${p}%\\s+(\\S+)`, "m").exec(out)?.[1] ?? "");
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socketErrors = socket ? socket.slice(1, 5).reduce((a, b) => a + Number(b), 0) : 0;
  const timeouts = socket ? Number(socket[4]) : 0;
  return {
    requests: num(/(\d+) requests in/),
    rps: num(/Requests\/sec:\s+([\d.]+)/),
    p50: latency(50),
    p99: latency(99),
    socketErrors,
    timeouts,
    non2xx: num(/Non-2xx or 3xx responses: (\d+)/),
  };
}

/** Runs a child to completion, collecting stdout; `track` lets a signal handler kill it. */
export function runChild(cmd, args, { track, timeoutMs, env, showStderr = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      stdio: ["ignore", "pipe", showStderr ? "inherit" : "pipe"],
      env: env ?? process.env,
    });
    track?.add(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr?.on("data", (d) => (stderr += d));
    const timer = timeoutMs ? setTimeout(() => child.kill("SIGKILL"), timeoutMs) : null;
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (timer) clearTimeout(timer);
      track?.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/**
 * Starts nginx (Debian package) on a free port with its own config, temp
 * dirs and pid file, serving `htmlDir`: `/` from index.html and any other
 * path from `<path>.html`.
 */
export async function startNginx(workDir, htmlDir, { gzip = false } = {}) {
  const port = await freePort();
  for (const d of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) {
    fs.mkdirSync(path.join(workDir, "temp", d), { recursive: true });
  }
  // Workers run as nobody when started by root: they must be able to read the files.
  fs.chmodSync(workDir, 0o755);
  for (const entry of fs.readdirSync(htmlDir, { recursive: true, withFileTypes: true })) {
    fs.chmodSync(path.join(entry.parentPath ?? entry.path, entry.name), entry.isDirectory() ? 0o755 : 0o644);
  }
  fs.chmodSync(htmlDir, 0o755);
  const t = (d) => path.join(workDir, "temp", d);
  const conf = path.join(workDir, "nginx.conf");
  fs.writeFileSync(
    conf,
    `worker_processes auto;
pid ${path.join(workDir, "nginx.pid")};
error_log ${path.join(workDir, "error.log")} warn;
daemon off;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${t("client_body")};
  proxy_temp_path ${t("proxy")};
  fastcgi_temp_path ${t("fastcgi")};
  uwsgi_temp_path ${t("uwsgi")};
  scgi_temp_path ${t("scgi")};
  default_type text/html;
  charset utf-8;
  sendfile on;
  tcp_nopush on;
  # Node keeps a connection for any number of requests; so does this baseline.
  keepalive_requests 1000000;
  ${gzip ? "gzip on;" : ""}
  server {
    listen 127.0.0.1:${port};
    root ${htmlDir};
    location = / { try_files /index.html =404; }
    location / { try_files $uri.html =404; }
  }
}
`,
  );
  const child = spawn("nginx", ["-p", workDir, "-c", conf, "-e", path.join(workDir, "error.log")], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) {
      const log = fs.existsSync(path.join(workDir, "error.log"))
        ? fs.readFileSync(path.join(workDir, "error.log"), "utf8")
        : "";
      throw new Error(`nginx exited with code ${child.exitCode}: ${stderr}${log}`);
    }
    try {
      await fetch(`${base}/`);
      break;
    } catch {}
    if (i > 100) throw new Error("nginx did not start");
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    base,
    pid: child.pid,
    /** The master and its workers. */
    pids() {
      const pids = [child.pid];
      for (const name of fs.readdirSync("/proc")) {
        if (!/^\d+$/.test(name)) continue;
        try {
          const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
          const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
          if (ppid === child.pid) pids.push(Number(name));
        } catch {}
      }
      return pids;
    },
    stop: () => stopChild(child, { signal: "SIGTERM", timeoutMs: 5000 }),
  };
}

/** Ticks per pid, for the processes that exist now. */
export function sample(pids) {
  const ticks = new Map();
  for (const pid of pids) {
    const t = cpuTicks(pid);
    if (t !== null) ticks.set(pid, t);
  }
  return ticks;
}

/**
 * CPU used between two samples. A process that appeared in between counts
 * from zero (a new database connection); one that vanished is reported as
 * lost, since its last ticks cannot be read.
 */
export function cpuDelta(before, after) {
  let ticks = 0;
  const msByPid = {};
  for (const [pid, t] of after) {
    const d = t - (before.get(pid) ?? 0);
    ticks += d;
    msByPid[pid] = (d * 1000) / CLK_TCK;
  }
  const lost = [...before.keys()].filter((pid) => !after.has(pid)).length;
  return { ms: (ticks * 1000) / CLK_TCK, msByPid, lost };
}

/**
 * One measured wrk run against `url`, after a short warm-up (JIT, database
 * pool at full size), with CPU sampled around it by `pids()`.
 */
export async function measure(url, { duration, warmup, connections, threads, headers = [], pids, track }) {
  const common = [`-t${threads}`, `-c${connections}`, ...headers.flatMap((h) => ["-H", h])];
  if (warmup > 0) await runChild("wrk", [...common, `-d${warmup}s`, url], { track, timeoutMs: (warmup + 30) * 1000 });
  const before = sample(await pids());
  const started = performance.now();
  const run = await runChild("wrk", [...common, `-d${duration}s`, "--latency", url], {
    track,
    timeoutMs: (duration + 60) * 1000,
  });
  const wall = performance.now() - started;
  const after = sample([...new Set([...(await pids()), ...before.keys()])]);
  if (run.code !== 0) throw new Error(`wrk failed (${run.code ?? run.signal}): ${run.stderr}`);
  const result = parseWrk(run.stdout);
  const cpu = cpuDelta(before, after);
  return {
    ...result,
    errors: result.socketErrors + result.non2xx,
    cpuMs: cpu.ms,
    cpuMsPerRequest: result.requests ? cpu.ms / result.requests : NaN,
    cpuMsByPid: cpu.msByPid,
    // Share of one core the server used during the run.
    cpuCores: cpu.ms / wall,
    lostProcesses: cpu.lost,
    processes: after.size,
  };
}
