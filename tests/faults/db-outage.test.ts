// The built server with a TCP proxy between it and PostgreSQL (issue 27,
// item 5): the instance's own warming fills the page cache (no visitor asks
// first), the proxy is cut, and a visitor of a kept page sees it byte for
// byte with its ETag (also under load for 30 s), a page not kept gets the
// Polish 503 with Retry-After, and the pastor's post is answered with his
// text kept. Then the line comes back: a change saved after recovery is on
// the public page within a second, and the pages it changed are warmed
// again, so a second cut still finds them, new.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScratchDatabase, postgresAvailable } from "../setup/database";
import { startTcpProxy, throughProxy } from "../tcp-proxy";
import { type RunningServer, startBuiltServer } from "./server";

const hasPostgres = await postgresAvailable();
const EMAIL = "outage@example.org";
const PASSWORD = "haslo-awaria-bazy-2026";
// The main public pages (those the warmer renders; /onas is left out until the second cut).
const CACHED = [
  "/",
  "/aktualnosci",
  "/galeria",
  "/kontakt",
  "/sluzby",
  "/kalendarz",
  "/aktualnosci/rss.xml",
  "/sitemap.xml",
];
const LOAD_MS = 30_000;
// Visitors during the outage: steady, not flat out, so that the test files
// running beside this one (vitest runs two at a time, some with an event-loop
// budget of their own) keep their share of the two cores.
const VISITORS = 5;
const VISITOR_PAUSE_MS = 20;

let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
let server: RunningServer;
let cookie = "";

const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

/** Fields of a page's forms: inputs with a value and textareas, in order (as a browser would send them). */
function formFields(html: string): [string, string][] {
  const fields: [string, string][] = [];
  const tag = /<(input|textarea)\b([^>]*)>/g;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    const name = /\bname="([^"]*)"/.exec(m[2])?.[1];
    if (!name || /\btype="(?:file|submit)"/.test(m[2])) continue;
    const value =
      m[1] === "input"
        ? (/\bvalue="([^"]*)"/.exec(m[2])?.[1] ?? "")
        : html.slice(tag.lastIndex, html.indexOf("</textarea>", tag.lastIndex));
    fields.push([unescape(name), unescape(value)]);
  }
  return fields;
}
const unescape = (s: string) =>
  s
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&");

function postFacts(fields: [string, string][]) {
  return fetch(`${server.base}/strefapastora/dane-zboru`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.base, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    signal: AbortSignal.timeout(15_000),
  });
}

async function factsForm(): Promise<[string, string][]> {
  const page = await fetch(`${server.base}/strefapastora/dane-zboru`, { headers: { Cookie: cookie } });
  expect(page.status).toBe(200);
  return formFields(await page.text());
}

beforeAll(async () => {
  if (!hasPostgres) return;
  scratch = await createScratchDatabase("outage");
  const target = new URL(scratch.url);
  proxy = await startTcpProxy({ host: "127.0.0.1", port: Number(target.port || 5432) });
  server = await startBuiltServer({
    DATABASE_URL: throughProxy(scratch.url, proxy.port),
    // The pages are put into the cache by the instance itself, after start and after each change.
    WARM_PAGES: "1",
    ADMIN_EMAIL: EMAIL,
    ADMIN_PASSWORD: PASSWORD,
  });
  const page = await fetch(`${server.base}/strefapastora/logowanie`);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1];
  const login = await fetch(`${server.base}/strefapastora/logowanie`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.base, Cookie: cookiesOf(page), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf, email: EMAIL, password: PASSWORD }),
  });
  expect(login.status).toBe(302);
  cookie = cookiesOf(login);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await proxy?.close();
  await scratch?.drop();
});

/** A visitor who names the site otherwise (without PUBLIC_URL pages print the host, and are kept per host). */
function visitAs(host: string, path: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port: server.port, path, headers: { Host: host }, timeout: 5_000 }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      })
      .on("error", reject);
  });
}

/** How many pages the instance's page cache holds (its /readyz says). */
async function cachedPages(): Promise<number> {
  return ((await (await fetch(`${server.base}/readyz`)).json()) as { cachedPages: number }).cachedPages;
}

/** Waits until the cache holds at least `least` pages and has stopped growing for a second; the count. */
async function warmed(least: number): Promise<number> {
  let last = -1;
  let steadySince = Date.now();
  // A round renders one page at a time with a pause as long as each took: slow on a busy machine.
  for (const until = Date.now() + 90_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    const now = await cachedPages();
    if (now !== last) [last, steadySince] = [now, Date.now()];
    else if (now >= least && Date.now() - steadySince >= 1_000) return now;
  }
  throw new Error(`the page cache was not warmed: ${last} pages`);
}

describe.runIf(hasPostgres)("database outage behind a cut proxy", () => {
  it("serves kept pages as they were, answers others and the pastor in Polish, and is fresh within a second of recovery", async () => {
    // Nobody has asked for a page: the instance warmed its cache by itself.
    const warm = await warmed(CACHED.length + 1);
    const kept = new Map<string, { body: Buffer; etag: string | null }>();
    for (const path of CACHED) {
      const res = await fetch(`${server.base}${path}`);
      expect(res.status, path).toBe(200);
      kept.set(path, { body: Buffer.from(await res.arrayBuffer()), etag: res.headers.get("ETag") });
    }
    // Each of them was already kept: asking added none.
    expect(await cachedPages()).toBe(warm);
    // A visitor of the site by another name: the main pages are warmed for that name too.
    const other = `localhost:${server.port}`;
    expect((await visitAs(other, "/")).status).toBe(200);
    await warmed(2 * warm);
    const form = await factsForm();

    proxy.cut();
    try {
      for (const [path, { body, etag }] of kept) {
        const res = await fetch(`${server.base}${path}`, { signal: AbortSignal.timeout(5_000) });
        expect(res.status, path).toBe(200);
        expect(res.headers.get("ETag"), path).toBe(etag);
        expect(Buffer.from(await res.arrayBuffer()).equals(body), path).toBe(true);
      }
      // The warmed page nobody has asked for yet is there too, by either name.
      expect((await fetch(`${server.base}/onas`, { signal: AbortSignal.timeout(5_000) })).status).toBe(200);
      for (const path of ["/aktualnosci", "/galeria", "/kontakt"])
        expect((await visitAs(other, path)).status).toBe(200);

      // A page never rendered: the Polish 503.
      const uncached = await fetch(`${server.base}/galeria/Nieznany%20album`, { signal: AbortSignal.timeout(10_000) });
      expect(uncached.status).toBe(503);
      expect(uncached.headers.get("Retry-After")).toBeTruthy();
      expect(await uncached.text()).toContain("Serwis chwilowo niedostępny");

      // The pastor's save: not saved, everything typed kept.
      const typed = "Tekst wpisany podczas awarii bazy.\nDruga linia.";
      const post = await postFacts(form.map(([k, v]) => [k, k === "history" ? typed : v]));
      expect(post.status).toBe(503);
      const html = await post.text();
      expect(html).toContain("Nie zapisano zmian");
      expect(new Map(formFields(html)).get("history")).toBe(typed);

      // Other pages of the area.
      const panel = await fetch(`${server.base}/strefapastora`, {
        headers: { Cookie: cookie },
        signal: AbortSignal.timeout(10_000),
      });
      expect(panel.status).toBe(503);
      expect(await panel.text()).toContain("Strefa pastora chwilowo niedostępna");

      // Load on the kept pages for 30 s: never anything but 200.
      const statuses: number[] = [];
      const until = Date.now() + LOAD_MS;
      await Promise.all(
        Array.from({ length: VISITORS }, async (_, i) => {
          for (let n = i; Date.now() < until; n++) {
            const res = await fetch(`${server.base}${CACHED[n % CACHED.length]}`).catch(() => null);
            statuses.push(res?.status ?? 0);
            await res?.arrayBuffer();
            await new Promise((r) => setTimeout(r, VISITOR_PAUSE_MS));
          }
        }),
      );
      expect(statuses.length).toBeGreaterThan(300);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      console.log(`${statuses.length} answers to visitors in ${LOAD_MS / 1000} s of outage, none other than 200`);
    } finally {
      proxy.restore();
    }

    // Back: the saved change is on the public page within a second.
    const name = `Zbór po awarii ${Date.now()}`;
    let saved: Response | null = null;
    for (let i = 0; i < 50 && saved?.status !== 302; i++) {
      if (i) await new Promise((r) => setTimeout(r, 200));
      saved = await postFacts(form.map(([k, v]) => [k, k === "name" ? name : v]));
    }
    expect(saved?.status).toBe(302);
    const savedAt = Date.now();
    let shownAfter = Infinity;
    while (Date.now() - savedAt < 3_000) {
      const text = await (await fetch(`${server.base}/kontakt`)).text();
      if (text.includes(name)) {
        shownAfter = Date.now() - savedAt;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(shownAfter).toBeLessThanOrEqual(1_000);
    console.log(`fresh page ${shownAfter} ms after the first save once the database was back`);

    // The change is warmed in too, for both names: cut again, and a page no one has asked for since shows it.
    await warmed(2 * warm);
    proxy.cut();
    try {
      const about = await fetch(`${server.base}/onas`, { signal: AbortSignal.timeout(5_000) });
      expect(about.status).toBe(200);
      expect(await about.text()).toContain(name);
      const otherAbout = await visitAs(other, "/onas");
      expect(otherAbout.status).toBe(200);
      expect(otherAbout.body).toContain(name);
    } finally {
      proxy.restore();
    }
  }, 300_000);
});
