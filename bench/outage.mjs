// A database outage under load: the built server reaches PostgreSQL through
// a TCP proxy of this script's own; the main public pages are warmed into
// the page cache, the proxy is cut for BENCH_DURATION seconds (30 by default)
// while CONNECTIONS clients load those pages, then the line comes back and
// the pastor saves a change ('Dane zboru'). Printed: answers during the
// outage and how many were not 2xx (refused connections and timeouts
// included), then how long until a save succeeds after recovery and until
// that change is on the public page.
//
//   npm run build && node --import tsx bench/outage.mjs     (needs PostgreSQL; no bench packages)
//   BENCH_DURATION=30 BENCH_CONNECTIONS=20
// Numbers are printed, never asserted (tests/faults/db-outage.test.ts asserts).
import { startTcpProxy } from "../tests/tcp-proxy.ts";
import { csrfIn, signIn, startServer } from "./lib.mjs";

const DURATION = Number(process.env.BENCH_DURATION ?? 30);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PAGES = ["/", "/aktualnosci", "/galeria", "/kontakt", "/onas", "/sluzby", "/kalendarz"];
const EMAIL = "awaria@example.org";
const PASSWORD = "haslo-awaria-bazy-2026";

let proxy;
const server = await startServer({
  env: { SEED_DEMO: "0", ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD },
  async prepare(env) {
    const url = new URL(env.DATABASE_URL);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    env.DATABASE_URL = url.toString();
  },
});
const { base } = server;

/** The 'Dane zboru' form as a browser would send it. */
async function factsForm(cookie) {
  const html = await (await fetch(`${base}/strefapastora/dane-zboru`, { headers: { Cookie: cookie } })).text();
  const fields = [];
  const tag = /<(input|textarea)\b([^>]*)>/g;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    const name = /\bname="([^"]*)"/.exec(m[2])?.[1];
    if (!name) continue;
    const raw =
      m[1] === "input"
        ? (/\bvalue="([^"]*)"/.exec(m[2])?.[1] ?? "")
        : html.slice(tag.lastIndex, html.indexOf("</textarea>", tag.lastIndex));
    const value = raw
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&quot;", '"')
      .replaceAll("&#x27;", "'")
      .replaceAll("&amp;", "&");
    fields.push([name, value]);
  }
  csrfIn(html);
  return fields;
}

try {
  const { cookie } = await signIn(base, EMAIL, PASSWORD, "/strefapastora/dane-zboru");
  const form = await factsForm(cookie);
  for (const page of PAGES) await (await fetch(base + page, { headers: { "accept-encoding": "gzip" } })).arrayBuffer();

  proxy.cut();
  const started = Date.now();
  const until = started + DURATION * 1000;
  let answers = 0;
  const bad = new Map();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, i) => {
      for (let n = i; Date.now() < until; n++) {
        let status = "error";
        try {
          const res = await fetch(base + PAGES[n % PAGES.length], {
            headers: { "accept-encoding": "gzip" },
            signal: AbortSignal.timeout(5_000),
          });
          await res.arrayBuffer();
          status = res.status;
        } catch {}
        answers++;
        if (!(status >= 200 && status < 300)) bad.set(status, (bad.get(status) ?? 0) + 1);
      }
    }),
  );
  const outageSeconds = (Date.now() - started) / 1000;

  proxy.restore();
  const back = Date.now();
  const name = `Zbór po awarii ${back}`;
  let savedAt = null;
  while (Date.now() - back < 30_000) {
    const res = await fetch(`${base}/strefapastora/dane-zboru`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: base, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form.map(([k, v]) => [k, k === "name" ? name : v])),
    });
    await res.arrayBuffer();
    if (res.status === 302) {
      savedAt = Date.now();
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  let freshAt = null;
  while (savedAt && Date.now() - savedAt < 10_000) {
    if ((await (await fetch(`${base}/kontakt`)).text()).includes(name)) {
      freshAt = Date.now();
      break;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const badCount = [...bad.values()].reduce((a, b) => a + b, 0);
  console.log(`outage of ${outageSeconds.toFixed(1)} s, ${CONNECTIONS} clients on ${PAGES.length} cached pages`);
  console.log(
    `  answers: ${answers} (${(answers / outageSeconds).toFixed(0)}/s), not 2xx: ${badCount}` +
      (badCount ? ` (${[...bad].map(([s, n]) => `${s}: ${n}`).join(", ")})` : ""),
  );
  console.log(`  first save after the line came back: ${savedAt ? `${savedAt - back} ms` : "none in 30 s"}`);
  console.log(`  the change on /kontakt: ${freshAt ? `${freshAt - savedAt} ms after the save` : "not within 10 s"}`);
} finally {
  await server.stop();
  await proxy?.close();
}
