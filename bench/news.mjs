// `node bench/news.mjs` (after `npm run build`): page weights of the public
// pages and autocannon -c 50 -d 15 on /aktualnosci with 20 articles.
import zlib from "node:zlib";
import autocannon from "autocannon";
import { fillArticles, startServer } from "./lib.mjs";

const server = await startServer();
try {
  await fillArticles(server.sql, 20);
  const pages = [
    "/",
    "/onas",
    "/aktualnosci",
    "/aktualnosci/1735000000000",
    "/kalendarz",
    "/sluzby",
    "/kontakt",
    "/galeria",
    `/galeria/${encodeURIComponent("Piknik zborowy 2025")}`,
    "/polityka-prywatnosci",
  ];
  console.log("page                               HTML bytes  HTML gzip  JS files  inline JS gzip");
  for (const p of pages) {
    const html = await (await fetch(server.base + p)).text();
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    const external = scripts.filter((m) => /\ssrc=/.test(m[1])).length;
    // Structured data (application/ld+json) is not run, so it is not JavaScript.
    const inline = scripts
      .filter((m) => !/application\/ld\+json/.test(m[1]))
      .map((m) => m[2])
      .join("");
    console.log(
      p.padEnd(35),
      String(Buffer.byteLength(html)).padStart(10),
      String(zlib.gzipSync(html).length).padStart(10),
      String(external).padStart(9),
      String(zlib.gzipSync(inline).length).padStart(15),
    );
  }
  const result = await autocannon({ url: `${server.base}/aktualnosci`, connections: 50, duration: 15 });
  console.log(
    `\nautocannon -c 50 -d 15 /aktualnosci (20 articles): ${result.requests.average.toFixed(0)} req/s, ` +
      `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, errors ${result.errors}, non-2xx ${result.non2xx}`,
  );
} finally {
  await server.stop();
}
