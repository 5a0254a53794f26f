// Lighthouse 12 (mobile preset, simulated throttling) on the signed-in
// pastor pages the performance goal names: the panel's home, the article
// form and the album editor (of the first album of the demo content). The
// session cookie goes with every request (`--extra-headers`). Prints each
// run's scores, LCP, TBT and the scripts' transfer size.
//
//   npm run build && npm ci --prefix bench && node bench/pastor-lighthouse.mjs
//
// BENCH_LH_RUNS (3) runs per page; a fresh server and Postgres database
// (bench/lib.mjs). Reports go to bench/out/pastor-*.report.json.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { signIn, startServer } from "./lib.mjs";

const BENCH = import.meta.dirname;
const OUT = path.join(BENCH, "out");
const RUNS = Math.max(1, Number(process.env.BENCH_LH_RUNS ?? 3));
const CHROME_FLAGS =
  "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync";
const ADMIN = { email: "bench@example.org", password: "bench-haslo-bench-haslo" };

fs.mkdirSync(OUT, { recursive: true });
const server = await startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
try {
  const { cookie } = await signIn(server.base, ADMIN.email, ADMIN.password);
  const [album] = await server.sql`select title from galleries order by id limit 1`;
  const headers = path.join(OUT, "pastor-headers.json");
  fs.writeFileSync(headers, JSON.stringify({ Cookie: cookie }));
  const pages = [
    "/strefapastora",
    "/strefapastora/artykuly/dodaj",
    `/strefapastora/galeria/edytuj/${encodeURIComponent(album.title)}`,
  ];
  console.log("page                              perf  a11y  LCP s  TBT ms  scripts KB (transfer)");
  for (const page of pages) {
    for (let run = 1; run <= RUNS; run++) {
      const file = path.join(OUT, `pastor-${page.split("/")[2] ?? "home"}-${run}.report.json`);
      const args = [
        `${server.base}${page}`,
        "--output=json",
        `--output-path=${file}`,
        `--chrome-flags=${CHROME_FLAGS}`,
      ];
      execFileSync(
        process.execPath,
        [path.join(BENCH, "node_modules/lighthouse/cli/index.js"), ...args, `--extra-headers=${headers}`, "--quiet"],
        {
          env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? "/usr/bin/chromium" },
        },
      );
      const lhr = JSON.parse(fs.readFileSync(file, "utf8"));
      const score = (id) => Math.round(lhr.categories[id].score * 100);
      const scripts = lhr.audits["network-requests"].details.items.filter((i) => i.resourceType === "Script");
      const kb = scripts.reduce((n, i) => n + i.transferSize, 0) / 1024;
      const lcp = lhr.audits["largest-contentful-paint"].numericValue / 1000;
      const tbt = lhr.audits["total-blocking-time"].numericValue;
      console.log(
        `${page.slice(0, 32).padEnd(32)} ${String(score("performance")).padStart(5)} ${String(score("accessibility")).padStart(5)} ${lcp.toFixed(2).padStart(6)} ${tbt.toFixed(0).padStart(7)}  ${kb.toFixed(1).padStart(6)} (${scripts.length} files)`,
      );
    }
  }
} finally {
  await server.stop();
}
