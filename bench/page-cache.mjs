// Server CPU per anonymous page view with and without the page cache
// (PAGE_CACHE_MB=0), on the embedded default (what `npm start` runs, with its
// demo content) and on PostgreSQL (200 articles). autocannon, 50 connections,
// no cookies, Accept-Encoding: gzip as browsers send it. CPU is the server
// process's utime + stime from /proc (PGlite runs inside it; Postgres
// backends are left out, so the PostgreSQL figure is the app's share only).
//
//   node bench/page-cache.mjs            (needs `npm run build`, PostgreSQL and the bench's own
//                                        packages: `npm ci --prefix bench`, done by `npm run bench`)
//   BENCH_DURATION=10 BENCH_ONLY=embedded|postgres
// Numbers are printed, never asserted.
import autocannon from "autocannon";
import { CLK_TCK } from "./load.mjs";
import { cpuTicks, fillArticles, startServer } from "./lib.mjs";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 50;
const LISTS = ["/", "/aktualnosci", "/galeria"];

/** The list pages, plus the first article and the first album they link to. */
async function pagesOf(base) {
  const first = async (list, pattern) => {
    const html = await (await fetch(base + list)).text();
    return pattern.exec(html)?.[1] ?? null;
  };
  const article = await first("/aktualnosci", /href="(\/aktualnosci\/\d+)"/);
  const album = await first("/galeria", /href="(\/galeria\/[^"]+)"/);
  return [...LISTS, article, album].filter(Boolean);
}
const DATABASES = (process.env.BENCH_ONLY ?? "embedded,postgres").split(",");

function load(url, duration) {
  return autocannon({ url, connections: CONNECTIONS, duration, headers: { "accept-encoding": "gzip" } });
}

const rows = [];
for (const database of DATABASES) {
  for (const cache of ["on", "off"]) {
    const server = await startServer({
      env: {
        PAGE_CACHE_MB: cache === "on" ? "32" : "0",
        ...(database === "embedded" ? { DATABASE_URL: "" } : {}),
      },
    });
    try {
      if (database === "postgres") await fillArticles(server.sql, 200);
      for (const page of await pagesOf(server.base)) {
        await load(server.base + page, 2); // JIT, first render
        const before = cpuTicks(server.pid);
        const r = await load(server.base + page, DURATION);
        const ticks = cpuTicks(server.pid) - before;
        const requests = r.requests.total;
        rows.push({
          database,
          cache,
          page,
          "req/s": Math.round(r.requests.average),
          "p50 ms": r.latency.p50,
          "p99 ms": r.latency.p99,
          "errors+timeouts": r.errors + r.timeouts + r.non2xx,
          "CPU ms/req": Number(((ticks * 1000) / CLK_TCK / requests).toFixed(3)),
        });
        console.error(JSON.stringify(rows.at(-1)));
      }
    } finally {
      await server.stop();
    }
  }
}
console.table(rows);
