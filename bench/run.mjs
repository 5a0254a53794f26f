// `npm run bench`: the performance benchmark of the public pages, on a fresh Postgres
// database seeded with 200 articles and 20 albums of 40 real stored photos.
//
//   wrk        wrk -t2 -c50 -d15s --latency on /, /aktualnosci, /aktualnosci/:id,
//              /galeria, /galeria/:slug; req/s, p50, p99, errors and server CPU
//              ms per request (app + its Postgres backends), beside nginx
//              serving saved copies of the same HTML
//   lighthouse Lighthouse 12 (mobile) on every public page
//   weight     bytes transferred before scrolling at 375 px (DPR 2)
//   cache      server CPU per view with and without the page cache, on the
//              embedded default (what `npm start` runs) and on PostgreSQL
//              (bench/page-cache.mjs)
//
// Environment:
//   BENCH_ONLY=wrk,lighthouse,weight,cache  run a subset (comma-separated); cache = bench/page-cache.mjs
//   BENCH_DURATION=15                 seconds per wrk run (e.g. 3 for a quick check)
//   BENCH_WARMUP=3                    seconds of wrk before each measured run
//   BENCH_CONNECTIONS=50              wrk connections (2 threads)
//   BENCH_GZIP=1                      wrk sends Accept-Encoding: gzip (nginx then gzips too)
//   BENCH_LH_RUNS=3                   Lighthouse runs per page; the run with the median LCP is reported
//   BENCH_LH_PAGES=/kalendarz,/kalendarz/:id  Lighthouse on these pages only (labels as in the report)
//   PAGE_CACHE_MB=0                   the app without its page cache (every view rendered)
//   CHROME_PATH=/usr/bin/chromium     browser for Lighthouse and the weights
//   TEST_DATABASE_URL                 Postgres server to create the database on
//
// The report goes to stdout and to bench/out/report.md; raw figures to
// bench/out/results.json, Lighthouse reports to bench/out/lighthouse/, the
// server's JSON request log to bench/out/server.log.
// Targets are reported, not asserted: the exit code is 0 when the bench ran.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import postgres from "postgres";
import { commandExists, ensureBuild, ensureDependencies, root } from "../scripts/lib.mjs";
import { SERVER_URL, startServer } from "./lib.mjs";
import { lighthouseVersion, runLighthouse } from "./lighthouse.mjs";
import { CLK_TCK, measure, runChild, startNginx } from "./load.mjs";

process.chdir(root);

const SECTIONS = ["wrk", "lighthouse", "weight", "cache"];
const only = (process.env.BENCH_ONLY ?? SECTIONS.join(","))
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
for (const s of only) {
  if (!SECTIONS.includes(s)) {
    console.error(`BENCH_ONLY: unknown section "${s}" (use ${SECTIONS.join(", ")})`);
    process.exit(2);
  }
}
const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const WARMUP = Number(process.env.BENCH_WARMUP ?? Math.min(3, DURATION));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const THREADS = 2;
const GZIP = ["1", "true", "yes"].includes(process.env.BENCH_GZIP ?? "");
// Lighthouse simulates the slow network from one observed load, so one run's
// LCP moves by a few hundred ms; Lighthouse's own advice is the median of several.
const LH_RUNS = Math.max(1, Number(process.env.BENCH_LH_RUNS ?? 3));
const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const CHROME_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
// Page weights count only what this site serves (the map is a third-party iframe).
const LOCAL_ONLY_FLAG = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1";
const OUT = path.join(root, "bench/out");

const log = (message) => process.stderr.write(`[bench] ${message}\n`);

// Everything started is stopped again, also on Ctrl-C or a failure.
const cleanups = [];
const running = new Set();
let cleaning;
let interrupted = false;
function cleanup() {
  cleaning ??= (async () => {
    for (const child of running) child.kill("SIGKILL");
    while (cleanups.length) {
      try {
        await cleanups.pop()();
      } catch (error) {
        log(`cleanup: ${error.message}`);
      }
    }
  })();
  return cleaning;
}
function stopIfInterrupted() {
  if (interrupted) throw new Error("interrupted");
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping the server and nginx, dropping the database`);
    cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------- helpers

const kib = (bytes) => (bytes == null ? "–" : (bytes / 1024).toFixed(1));
/** The median run's LCP in seconds, with every run's range when there were several. */
const lcpCell = (x) => {
  const s = (v) => (v / 1000).toFixed(2);
  const runs = x.lcpRunsMs ?? [x.lcpMs];
  return runs.length > 1 ? `${s(x.lcpMs)} (${s(runs[0])}–${s(runs.at(-1))})` : s(x.lcpMs);
};
const fmt = (x) =>
  x == null || Number.isNaN(x)
    ? "–"
    : x >= 100
      ? x.toFixed(0)
      : x >= 10
        ? x.toFixed(1)
        : x >= 1
          ? x.toFixed(2)
          : x.toFixed(3);
const ms = (x) => (x == null || Number.isNaN(x) ? "–" : x >= 100 ? x.toFixed(0) : x.toFixed(1));
const mark = (ok) => (ok ? "✓" : "✗");
// wrk gives up on a request after 2 s and counts it as a socket timeout.
const errorCell = (x) =>
  x.errors === 0
    ? "0"
    : `${x.errors} (${[
        x.timeouts && `${x.timeouts} timeouts`,
        x.socketErrors - x.timeouts && `${x.socketErrors - x.timeouts} socket`,
        x.non2xx && `${x.non2xx} non-2xx`,
      ]
        .filter(Boolean)
        .join(", ")})`;

/** A Markdown table padded so it also reads well in a terminal. */
function table(head, rows, align = head.map((_, i) => (i === 0 ? "l" : "r"))) {
  const cells = [head, ...rows].map((r) => r.map((c) => String(c ?? "–")));
  const widths = head.map((_, i) => Math.max(3, ...cells.map((r) => [...r[i]].length)));
  const pad = (c, i) => (align[i] === "l" ? c.padEnd(widths[i]) : c.padStart(widths[i]));
  const line = (r) => `| ${r.map(pad).join(" | ")} |`;
  const rule = `| ${widths.map((w, i) => (align[i] === "l" ? `:${"-".repeat(w - 1)}` : `${"-".repeat(w - 1)}:`)).join(" | ")} |`;
  return [line(cells[0]), rule, ...cells.slice(1).map(line)].join("\n");
}

function sh(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  } catch {
    return null;
  }
}

/** Installs missing Debian packages when running as root; returns what is still missing. */
function ensurePackages(wanted) {
  const missing = () => wanted.filter((w) => !w.present());
  let todo = missing();
  if (todo.length === 0) return [];
  if (process.getuid?.() !== 0 || !commandExists("apt-get")) return todo;
  const pkgs = todo.map((w) => w.pkg);
  log(`installing ${pkgs.join(", ")} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const install = () =>
    spawnSync("apt-get", ["install", "-y", "--no-install-recommends", ...pkgs], { stdio: "inherit", env }).status === 0;
  if (!install()) {
    spawnSync("apt-get", ["update"], { stdio: "inherit", env });
    install();
  }
  return missing();
}

function inlineScripts(html) {
  const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
  // Structured data (application/ld+json) is not run, so it is not JavaScript.
  const inline = scripts
    .filter((m) => !/\ssrc=/.test(m[1]) && !/application\/ld\+json/.test(m[1]))
    .map((m) => m[2])
    .join("");
  return {
    external:
      scripts.filter((m) => /\ssrc=/.test(m[1])).length + [...html.matchAll(/<link[^>]+rel="modulepreload"/g)].length,
    inlineBytes: Buffer.byteLength(inline),
    inlineGzip: inline ? zlib.gzipSync(inline).length : 0,
  };
}

// ---------------------------------------------------------------- run

async function main() {
  const startedAt = new Date();
  ensureDependencies();
  // Lighthouse and the browser driver are the bench's own package (bench/package.json).
  ensureDependencies("bench");
  ensureBuild();
  fs.mkdirSync(OUT, { recursive: true });

  const notes = [];
  const missingTools = ensurePackages([
    ...(only.includes("wrk")
      ? [
          { pkg: "wrk", present: () => commandExists("wrk") },
          { pkg: "nginx", present: () => commandExists("nginx") },
        ]
      : []),
    ...(only.includes("lighthouse") || only.includes("weight")
      ? [{ pkg: "chromium", present: () => fs.existsSync(CHROME_PATH) }]
      : []),
  ]).map((w) => w.pkg);
  for (const pkg of missingTools)
    notes.push(`\`${pkg}\` is missing: install it with \`apt-get install -y ${pkg}\` (as root) to run what needs it.`);
  const canWrk = only.includes("wrk") && !missingTools.includes("wrk");
  const canNginx = canWrk && !missingTools.includes("nginx");
  const canBrowser = !missingTools.includes("chromium");

  log("seeding a fresh database (200 articles, 20 albums × 40 photos through the image pipeline)…");
  let seed;
  const seedStarted = performance.now();
  // Registered before it resolves, so an interrupt waits for the start (or
  // for its own cleanup after a failure) before dropping the database.
  const starting = startServer({
    logFile: path.join(OUT, "server.log"),
    async prepare(env) {
      const run = await runChild(process.execPath, ["--import", "tsx", "bench/seed.ts"], {
        env,
        track: running,
        showStderr: true,
      });
      if (run.code !== 0) throw new Error(`seeding failed (exit ${run.code ?? run.signal})`);
      seed = JSON.parse(run.stdout.trim().split("\n").pop());
    },
  });
  cleanups.push(async () => (await starting.catch(() => null))?.stop());
  const server = await starting;
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  log(
    `server on ${server.base} (pid ${server.pid}), database ${server.databaseName}, ready after ${seedSeconds.toFixed(0)} s`,
  );

  // An event of today with a photo, so an event page with one is measured.
  // Added once the server has seeded the sample meetings (it adds them only to
  // a site without events) and before any page is served, so none is cached.
  const [photo] = await server.sql`select image_key, image_width, image_height from articles
    where image_key is not null order by date desc limit 1`;
  const [photoEvent] = await server.sql`insert into events
      (title, description, place, start_date, start_time, image_key, image_width, image_height)
    values ('Koncert uwielbienia', 'Zapraszamy na wieczór pieśni i modlitwy.', 'Sala główna',
      to_char(now() at time zone 'Europe/Warsaw', 'YYYY-MM-DD'), '18:00',
      ${photo.image_key}, ${photo.image_width}, ${photo.image_height})
    returning id, start_date`;
  Object.assign(seed, { photoEventId: photoEvent.id, month: photoEvent.start_date.slice(0, 7) });
  const article = `/aktualnosci/${encodeURIComponent(seed.newestArticleId)}`;
  const album = `/galeria/${encodeURIComponent(seed.newestAlbumTitle)}`;
  const event = `/kalendarz/${seed.photoEventId}`;
  const month = `/kalendarz?miesiac=${seed.month}`;
  const labels = {
    [article]: "/aktualnosci/:id",
    [album]: "/galeria/:slug",
    [event]: "/kalendarz/:id",
    [month]: "/kalendarz?miesiac=:month",
  };
  const label = (p) => labels[p] ?? p;
  const publicPages = [
    "/",
    "/onas",
    "/onas/swiadectwa/1",
    "/aktualnosci",
    article,
    "/kalendarz",
    month,
    event,
    "/sluzby",
    "/kontakt",
    "/galeria",
    album,
    "/polityka-prywatnosci",
  ];
  const loadPages = ["/", "/aktualnosci", article, "/galeria", album];
  const weightPages = ["/galeria/:slug", "/aktualnosci", "/", "/aktualnosci/:id", "/galeria"].map((l) =>
    loadPages.find((p) => label(p) === l),
  );

  // What each page is, as wrk and nginx will see it (no cookies, no Accept-Encoding).
  const pages = {};
  for (const p of publicPages) {
    const res = await fetch(server.base + p, { headers: { "Accept-Encoding": "identity" } });
    const html = await res.text();
    pages[p] = {
      status: res.status,
      html,
      bytes: Buffer.byteLength(html),
      gzip: zlib.gzipSync(html).length,
      images: (html.match(/<img\s/g) ?? []).length,
      cards: (html.match(/<li class="card"/g) ?? []).length,
      cacheControl: res.headers.get("cache-control"),
      etag: res.headers.get("etag"),
      ...inlineScripts(html),
    };
    if (res.status !== 200) notes.push(`${label(p)} answered ${res.status}.`);
    // A browser revalidating its copy after a minute sends the validator back.
    const etag = res.headers.get("etag");
    const lastModified = res.headers.get("last-modified");
    if (etag || lastModified) {
      const again = await fetch(server.base + p, {
        headers: {
          "Accept-Encoding": "identity",
          ...(etag ? { "If-None-Match": etag } : { "If-Modified-Since": lastModified }),
        },
      });
      await again.arrayBuffer();
      pages[p].revalidation = again.status;
    }
  }

  const results = {
    startedAt: startedAt.toISOString(),
    seed,
    seedSeconds,
    pages: {},
    load: [],
    lighthouse: {},
    weight: {},
  };
  for (const [p, info] of Object.entries(pages)) {
    const { html, ...rest } = info;
    results.pages[label(p)] = { path: p, ...rest };
  }

  // ------------------------------------------------------------ wrk
  if (canWrk) {
    const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
    cleanups.push(() => admin.end({ timeout: 5 }));
    const appPids = async () => [
      server.pid,
      ...(await admin`select pid from pg_stat_activity where datname = ${server.databaseName}`).map((r) => r.pid),
    ];
    let nginx;
    if (canNginx) {
      const work = fs.mkdtempSync(path.join(os.tmpdir(), "zbor-bench-nginx-"));
      cleanups.push(() => fs.rmSync(work, { recursive: true, force: true }));
      const htmlDir = path.join(work, "html");
      for (const p of loadPages) {
        const file = p === "/" ? path.join(htmlDir, "index.html") : path.join(htmlDir, `${decodeURIComponent(p)}.html`);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, pages[p].html);
      }
      const nginxStarting = startNginx(work, htmlDir, { gzip: GZIP });
      cleanups.push(async () => (await nginxStarting.catch(() => null))?.stop());
      nginx = await nginxStarting;
      for (const p of loadPages) {
        const res = await fetch(nginx.base + p, { headers: { "Accept-Encoding": "identity" } });
        const body = await res.text();
        if (res.status !== 200 || body !== pages[p].html)
          throw new Error(`nginx does not serve the saved copy of ${p} (${res.status})`);
      }
      log(`nginx on ${nginx.base} (master pid ${nginx.pid})`);
    }
    const headers = GZIP ? ["Accept-Encoding: gzip"] : [];
    const options = {
      duration: DURATION,
      warmup: WARMUP,
      connections: CONNECTIONS,
      threads: THREADS,
      headers,
      track: running,
    };
    // One failed run is reported and the others still measured.
    const attempt = async (p, serverName, fn) => {
      stopIfInterrupted();
      log(`wrk ${label(p)}: ${serverName}…`);
      try {
        return await fn();
      } catch (error) {
        stopIfInterrupted();
        notes.push(`wrk on ${label(p)} (${serverName}): ${error.message}`);
        return null;
      }
    };
    for (const p of loadPages) {
      const app = await attempt(p, "app", () => measure(server.base + p, { ...options, pids: appPids }));
      if (app) {
        const dbMs = Object.entries(app.cpuMsByPid).reduce(
          (a, [pid, v]) => (Number(pid) === server.pid ? a : a + v),
          0,
        );
        results.load.push({
          page: label(p),
          server: "app",
          ...app,
          dbMsPerRequest: app.requests ? dbMs / app.requests : NaN,
        });
        if (app.lostProcesses)
          notes.push(
            `${label(p)}: ${app.lostProcesses} database process(es) ended during the run; their last CPU ticks are missing.`,
          );
      }
      if (nginx) {
        const ng = await attempt(p, "nginx", () => measure(nginx.base + p, { ...options, pids: () => nginx.pids() }));
        if (ng) results.load.push({ page: label(p), server: "nginx", ...ng });
      }
    }
    if (nginx) {
      await nginx.stop();
    }
  }

  // ------------------------------------------------------------ lighthouse
  if (only.includes("lighthouse") && canBrowser) {
    const dir = path.join(OUT, "lighthouse");
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const lhPages = process.env.BENCH_LH_PAGES?.split(",");
    for (const p of publicPages.filter((x) => !lhPages || lhPages.includes(label(x)))) {
      const name = label(p)
        .replace(/^\/$/, "index")
        .replace(/^\//, "")
        .replace(/[/:?=]+/g, "_");
      stopIfInterrupted();
      log(`lighthouse ${label(p)}${LH_RUNS > 1 ? ` (${LH_RUNS} runs)` : ""}…`);
      try {
        const runs = [];
        for (let i = 0; i < LH_RUNS; i++) {
          stopIfInterrupted();
          // No dot in the name: Lighthouse cuts what follows one as an extension.
          const base = path.join(dir, LH_RUNS > 1 ? `${name}-run${i + 1}` : name);
          runs.push({
            base,
            ...(await runLighthouse(server.base + p, base, {
              chromePath: CHROME_PATH,
              chromeFlags: CHROME_FLAGS,
              track: running,
            })),
          });
        }
        // The median run by LCP stands for the page; its reports keep the page's name.
        const lcps = runs.map((x) => x.lcpMs).sort((a, b) => a - b);
        const { base, ...median } = [...runs].sort((a, b) => a.lcpMs - b.lcpMs)[Math.floor((runs.length - 1) / 2)];
        if (LH_RUNS > 1) {
          for (const ext of ["report.json", "report.html"])
            fs.copyFileSync(`${base}.${ext}`, path.join(dir, `${name}.${ext}`));
        }
        results.lighthouse[label(p)] = { ...median, lcpRunsMs: lcps };
      } catch (error) {
        stopIfInterrupted();
        results.lighthouse[label(p)] = { error: error.message };
        notes.push(`Lighthouse on ${label(p)}: ${error.message}`);
      }
    }
  }

  // ------------------------------------------------------------ weight
  if (only.includes("weight") && canBrowser) {
    const { openBrowser, pageWeight } = await import("./weight.mjs");
    const launching = openBrowser({ chromePath: CHROME_PATH, chromeFlags: [...CHROME_FLAGS, LOCAL_ONLY_FLAG] });
    cleanups.push(async () => (await launching.catch(() => null))?.close());
    const browser = await launching;
    for (const p of weightPages) {
      stopIfInterrupted();
      log(`weight ${label(p)}…`);
      try {
        results.weight[label(p)] = await pageWeight(browser, server.base + p);
      } catch (error) {
        stopIfInterrupted();
        notes.push(`Page weight of ${label(p)}: ${error.message}`);
      }
    }
    await browser.close();
  }

  stopIfInterrupted();
  await cleanup();
  results.finishedAt = new Date().toISOString();
  let report = buildReport(results, { notes, album, loadPages, publicPages, label, canNginx });
  // ------------------------------------------------------------ cache
  // Both ways: the embedded default (what `npm start` runs) and PostgreSQL,
  // each with the page cache and without it (bench/page-cache.mjs).
  if (only.includes("cache")) {
    log("page cache, embedded and PostgreSQL, on and off…");
    const run = spawnSync(process.execPath, ["bench/page-cache.mjs"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      // Its own BENCH_ONLY names databases, not sections.
      env: { ...process.env, BENCH_ONLY: "embedded,postgres" },
    });
    report +=
      "\n## Server CPU per view with and without the page cache\n\n" +
      "`node bench/page-cache.mjs`: autocannon, 50 connections, gzip; CPU of the app process (PGlite runs inside it).\n\n" +
      "```\n" +
      (run.stdout || `failed: ${run.status}`) +
      "```\n";
  }
  fs.writeFileSync(path.join(OUT, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  fs.writeFileSync(path.join(OUT, "report.md"), report);
  process.stdout.write(`\n${report}`);
  log(`report written to bench/out/report.md`);
}

// ---------------------------------------------------------------- report

function buildReport(r, { notes, publicPages, label, canNginx }) {
  const out = [];
  const commit = sh("git", ["rev-parse", "--short", "HEAD"]);
  const dirty = sh("git", ["status", "--porcelain"]);
  const cpu = os.cpus();
  const command = [
    only.length < SECTIONS.length ? `BENCH_ONLY=${only.join(",")}` : null,
    process.env.BENCH_DURATION ? `BENCH_DURATION=${DURATION}` : null,
    process.env.BENCH_WARMUP ? `BENCH_WARMUP=${WARMUP}` : null,
    process.env.BENCH_CONNECTIONS ? `BENCH_CONNECTIONS=${CONNECTIONS}` : null,
    GZIP ? "BENCH_GZIP=1" : null,
    process.env.PAGE_CACHE_MB ? `PAGE_CACHE_MB=${process.env.PAGE_CACHE_MB}` : null,
    process.env.BENCH_LH_RUNS ? `BENCH_LH_RUNS=${LH_RUNS}` : null,
    process.env.BENCH_LH_PAGES ? `BENCH_LH_PAGES=${process.env.BENCH_LH_PAGES}` : null,
    "npm run bench",
  ]
    .filter(Boolean)
    .join(" ");

  out.push("# Benchmark report", "");
  out.push(
    `Command: \`${command}\` · ${r.startedAt.replace("T", " ").slice(0, 16)} UTC · commit ${commit ?? "?"}${dirty ? " (with uncommitted changes)" : ""}`,
  );
  out.push(
    `Machine: ${cpu.length} × ${cpu[0]?.model?.trim() ?? "CPU"}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} at the end · Node ${process.version} · ${sh("psql", ["--version"]) ?? "Postgres"} · production build`,
  );
  const s = r.seed;
  const avg = s.averageBytes;
  out.push(
    `Data: ${s.articles} articles, ${s.albums} albums × ${s.galleryImages / s.albums} photos (${s.galleryImages} rows) on a fresh Postgres database; ` +
      `${s.distinctPhotos} distinct generated ${s.photoSize} photos stored through \`storeImage\` and shared by all albums ` +
      `(average stored size: JPEG ${kib(avg.large)} KiB, WebP ${Object.keys(avg)
        .filter((k) => k !== "large")
        .map((k) => `${k} px ${kib(avg[k])} KiB`)
        .join(", ")}); seeding and start took ${r.seedSeconds.toFixed(0)} s.`,
  );
  out.push(
    `\`/aktualnosci/:id\` = \`/aktualnosci/${s.newestArticleId}\` (newest article), \`/galeria/:slug\` = the newest album, „${s.newestAlbumTitle}”, ` +
      `\`/kalendarz/:id\` = \`/kalendarz/${s.photoEventId}\` (today's event with a photo), \`:month\` = ${s.month}.`,
    "",
  );

  out.push("## Pages as served", "");
  out.push(
    "HTML as sent without compression and gzipped here (level 6); scripts counted in the HTML; " +
      '"revalidated" is the status of a second request sending the page\'s ETag (If-None-Match) or Last-Modified back.',
    "",
  );
  out.push(
    table(
      [
        "page",
        "status",
        "HTML KiB",
        "gzip KiB",
        "<img>",
        "script files",
        "inline JS gzip B",
        "revalidated",
        "Cache-Control",
      ],
      publicPages.map((p) => {
        const x = r.pages[label(p)];
        return [
          label(p),
          x.status,
          kib(x.bytes),
          kib(x.gzip),
          x.images,
          x.external,
          x.inlineGzip,
          x.revalidation ?? "no validator",
          x.cacheControl ?? "–",
        ];
      }),
      ["l", "r", "r", "r", "r", "r", "r", "r", "l"],
    ),
    "",
  );

  if (r.load.length) {
    out.push("## Throughput and server CPU (wrk)", "");
    out.push(
      `\`wrk -t${THREADS} -c${CONNECTIONS} -d${DURATION}s --latency\`${GZIP ? ' with `-H "Accept-Encoding: gzip"`' : ""} after ${WARMUP} s of warm-up, each page on the app and then on nginx serving a saved copy of the same HTML. ` +
        `CPU ms/req = utime + stime (from /proc, ${CLK_TCK} ticks/s) of the app process and of the Postgres backends of the bench database (or of nginx's master and workers), divided by the requests served; "of which DB" is the Postgres share, "CPU cores" the CPU time over the wall time of the run. ` +
        `Errors = socket errors + responses other than 2xx/3xx. ` +
        `${GZIP ? "" : "wrk sends no Accept-Encoding, so both servers send uncompressed HTML. "}` +
        "req/s and latency depend on whatever else the machine runs; CPU per request much less so.",
      "",
    );
    out.push(
      table(
        ["page", "server", "req/s", "p50 ms", "p99 ms", "errors", "requests", "CPU ms/req", "of which DB", "CPU cores"],
        r.load.map((x) => [
          x.page,
          x.server,
          fmt(x.rps),
          ms(x.p50),
          ms(x.p99),
          errorCell(x),
          x.requests,
          fmt(x.cpuMsPerRequest),
          x.dbMsPerRequest == null ? "–" : fmt(x.dbMsPerRequest),
          x.cpuCores.toFixed(2),
        ]),
        ["l", "l", "r", "r", "r", "r", "r", "r", "r", "r"],
      ),
      "",
    );
    if (!canNginx) out.push("nginx was not available, so there is no static baseline.", "");
  }

  const lh = Object.entries(r.lighthouse);
  if (lh.length) {
    out.push(`## Lighthouse ${lighthouseVersion()} (mobile emulation, simulated throttling)`, "");
    out.push(
      "Scores 0–100; JS = transfer size of script files (Lighthouse) + inline scripts gzipped (from the HTML). " +
        "This machine has no internet: third-party frames (map, calendar) cannot load, so they add nothing here. " +
        "Simulated throttling scales the main-thread time observed on this machine (4× CPU slowdown), so LCP and TBT vary between runs when the machine is busy. " +
        `Each page ran ${LH_RUNS} time(s): the figures are those of the run with the median LCP, the range in brackets is every run's LCP. ` +
        "Full reports in bench/out/lighthouse/.",
      "",
    );
    out.push(
      table(
        [
          "page",
          "perf",
          "a11y",
          "best pr.",
          "SEO",
          "LCP s",
          "TBT ms",
          "CLS",
          "total KiB",
          "JS files",
          "JS B (files + inline gz)",
        ],
        lh.map(([page, x]) =>
          x.error
            ? [page, "error", "", "", "", "", "", "", "", "", ""]
            : [
                page,
                x.performance,
                x.accessibility,
                x.bestPractices,
                x.seo,
                lcpCell(x),
                x.tbtMs.toFixed(0),
                x.cls.toFixed(3),
                kib(x.totalBytes),
                x.scriptFiles,
                `${x.scriptTransferBytes + r.pages[page].inlineGzip} (${x.scriptTransferBytes} + ${r.pages[page].inlineGzip})`,
              ],
        ),
      ),
      "",
    );
    const slow = lh.filter(([, x]) => !x.error && x.lcpMs > 1000);
    if (slow.length) {
      out.push("Pages with LCP over 1.0 s, their LCP element and its phases (ms):", "");
      for (const [page, x] of slow) {
        const phases = Object.entries(x.lcp.phases)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ");
        out.push(`- ${page}: ${x.lcp.element ?? "?"}${phases ? ` — ${phases}` : ""}`);
      }
      out.push("");
    }
    const lost = lh.filter(([, x]) => !x.error && x.failing.length);
    if (lost.length) {
      out.push("Audits costing points:", "");
      for (const [page, x] of lost) out.push(`- ${page}: ${x.failing.join(", ")}`);
      out.push("");
    }
  }

  const wt = Object.entries(r.weight);
  if (wt.length) {
    out.push("## Page weight before scrolling", "");
    out.push(
      "Chromium (playwright-core) at 375 × 667 CSS px, **device scale factor 2**, mobile + touch emulation, empty cache; " +
        "load event + network idle, no scrolling; requests to other hosts blocked (so the lazy map on / is not counted). " +
        "Sizes in KiB are Chromium's encoded transfer sizes (headers included). " +
        "Chromium starts `loading=lazy` images from about 1250 px below the viewport on a fast connection (more on slow ones), so more images load than are visible.",
      "",
    );
    out.push(
      table(
        [
          "page",
          "total KiB",
          "requests",
          "HTML",
          "CSS",
          "JS",
          "images",
          "fonts",
          "other",
          "<img> visible / loaded / in page",
        ],
        wt.map(([page, x]) => [
          page,
          kib(x.total),
          x.requests,
          kib(x.byType.html),
          kib(x.byType.css),
          kib(x.byType.js),
          kib(x.byType.img),
          kib(x.byType.font),
          kib(x.byType.other),
          `${x.images.visible} / ${x.images.loaded} / ${x.images.inPage}`,
        ]),
      ),
      "",
    );
  }

  out.push("## Performance targets", "");
  out.push(...targets(r).map((t) => `- ${t}`), "");
  if (notes.length) {
    out.push("## Notes", "");
    out.push(...notes.map((n) => `- ${n}`), "");
  }
  return `${out.join("\n")}\n`;
}

function targets(r) {
  const lines = [];
  const lh = Object.entries(r.lighthouse).filter(([, x]) => !x.error);
  if (lh.length) {
    const js = lh.map(([page, x]) => [page, x.scriptTransferBytes + r.pages[page].inlineGzip]);
    const worstJs = js.reduce((a, b) => (b[1] > a[1] ? b : a));
    lines.push(
      `${mark(worstJs[1] <= 5000)} ≤ 5 KB JavaScript on every public page: largest ${worstJs[1]} B on ${worstJs[0]}${worstJs[1] > 5000 ? ` (${worstJs[1] - 5000} B over)` : ""}.`,
    );
    for (const [key, name] of [
      ["performance", "performance"],
      ["accessibility", "accessibility"],
    ]) {
      const below = lh.filter(([, x]) => x[key] < 100);
      lines.push(
        `${mark(below.length === 0)} Lighthouse ${name} 100 on every page${below.length ? `: ${below.map(([p, x]) => `${p} ${x[key]}`).join(", ")}` : ""}.`,
      );
    }
    const slow = lh.filter(([, x]) => x.lcpMs > 1000);
    const worstLcp = lh.reduce((a, b) => (b[1].lcpMs > a[1].lcpMs ? b : a));
    const worstRun = Math.max(...lh.flatMap(([, x]) => x.lcpRunsMs ?? [x.lcpMs]));
    lines.push(
      `${mark(slow.length === 0)} LCP ≤ 1.0 s on every page (median of ${LH_RUNS}): slowest ${(worstLcp[1].lcpMs / 1000).toFixed(2)} s on ${worstLcp[0]}${slow.length ? ` (${slow.length} page(s) over)` : ""}; slowest single run ${(worstRun / 1000).toFixed(2)} s.`,
    );
  }
  const home = r.weight["/"];
  if (home)
    lines.push(
      `${mark(home.total <= 25 * 1024)} / ≤ 25 KiB before the lazy map: ${kib(home.total)} KiB${home.total > 25 * 1024 ? ` (${kib(home.total - 25 * 1024)} KiB over)` : ""}.`,
    );
  const albumWeight = r.weight["/galeria/:slug"];
  if (albumWeight) {
    lines.push(
      `${mark(albumWeight.total <= 400_000)} album of 40 photos ≤ 400 KB before scrolling: ${(albumWeight.total / 1000).toFixed(0)} kB, ${albumWeight.images.loaded} of ${albumWeight.images.inPage} images loaded, ${albumWeight.images.visible} visible${albumWeight.total > 400_000 ? ` (${((albumWeight.total - 400_000) / 1000).toFixed(0)} kB over)` : ""}.`,
    );
  }
  const news = r.load.find((x) => x.page === "/aktualnosci" && x.server === "app");
  if (news) {
    const cards = r.pages["/aktualnosci"].cards;
    lines.push(
      `${mark(news.cpuMsPerRequest <= 2)} /aktualnosci (${cards} cards rendered; the target assumes 20) ≤ 2 ms server CPU per request: ${fmt(news.cpuMsPerRequest)} ms${news.cpuMsPerRequest > 2 ? ` (${fmt(news.cpuMsPerRequest - 2)} ms over)` : ""}.`,
    );
    lines.push(`${mark(news.errors === 0)} /aktualnosci zero errors: ${errorCell(news)}.`);
    lines.push(`${mark(news.p99 <= 100)} /aktualnosci p99 ≤ 100 ms at ${CONNECTIONS} connections: ${ms(news.p99)} ms.`);
  }
  if (lines.length === 0) lines.push("No section that checks a target ran.");
  return lines;
}

try {
  await main();
} catch (error) {
  // After a signal, what fails is what the cleanup stopped; the handler exits.
  if (!interrupted) {
    log(`failed: ${error.stack ?? error.message}`);
    await cleanup();
    process.exit(1);
  }
}
