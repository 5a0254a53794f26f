// The page cache in front of Remix: an anonymous view of a public page is
// rendered once per content version; sessions, cookies that are set and
// anything a client could use to poison a page for others go straight
// through. Remix is stood in for by a handler that counts its renders and,
// like the app while PUBLIC_URL is unset, prints the request's host.
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BROWSER_ONLY_CACHE, SHARED_CACHE, publicCacheControl } from "~/http/cache.server";
import { acceptPolicyCookie } from "~/http/cookie-notice.server";
import { WARMER_AGENT, createPageCache } from "~/http/page-cache.server";
import { contentChanged, forgetContentVersion } from "~/services/content-version.server";
import { resetDatabase } from "../helpers";

const renders = new Map<string, number>();
const rendered = (path: string) => renders.get(path) ?? 0;

/** Answers like a Remix document: in two chunks, with the public policy and an ETag. */
function remix(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? "/", "http://x");
  const n = rendered(url.pathname) + 1;
  renders.set(url.pathname, n);
  const size = Number(url.pathname.match(/^\/duzy\/\d+\/(\d+)$/)?.[1] ?? 0);
  res.statusCode = url.pathname === "/brak" ? 404 : 200;
  res.setHeader(
    "Cache-Control",
    url.pathname.endsWith("prywatna") ? "private, no-store" : publicCacheControl(pagesPrintHost),
  );
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.setHeader("ETag", `W/"${url.pathname}-${n}"`);
  if (url.pathname === "/ciasteczko") res.setHeader("Set-Cookie", "flash=x; Path=/");
  if (url.pathname === "/skrypty") {
    // As the app renders a page: a fresh nonce on every inline script and in the policy.
    const nonce = `n${n}`;
    res.setHeader(
      "Content-Security-Policy",
      `default-src 'self'; script-src 'self' 'nonce-${nonce}'; object-src 'none'`,
    );
    res.write(
      `<script nonce="${nonce}">window.a = "ą";</script><script nonce="${nonce}" type="module" src="/build/x.js"></script>` +
        `<script type="application/ld+json" nonce="${nonce}">{"@type":"Church"}</script><script nonce="${nonce}">window.b = 2;</script>`,
    );
  }
  res.write(`<p>${req.headers.host} ${url.pathname}${url.search} render ${n}</p>`);
  const end = () => res.end(`<p>cookie: ${req.headers.cookie ?? ""}</p>${"x".repeat(size)}`);
  // A page whose loaders take a while.
  if (url.pathname.startsWith("/wolna")) setTimeout(end, 100);
  else end();
}

let server: http.Server;
let cache: ReturnType<typeof createPageCache>;
let options = { maxBytes: 1024 * 1024, hostInPages: true };
/** Whether the stand-in prints the host, as the app does while PUBLIC_URL is unset. */
let pagesPrintHost = true;

beforeAll(async () => {
  server = http.createServer((req, res) => void cache.handle(req, res, () => remix(req, res)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(async () => {
  pagesPrintHost = true;
  await resetDatabase();
  forgetContentVersion();
  renders.clear();
  options = { maxBytes: 1024 * 1024, hostInPages: true };
  cache = createPageCache(options);
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function get(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, path, method, headers: { host: "kosciol.example", ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const raw = Buffer.concat(chunks);
          const body = res.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(raw) : raw;
          resolve({ status: res.statusCode!, headers: res.headers, body: body.toString() });
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("an anonymous view of a public page", () => {
  it("is rendered once, then served from memory with its ETag, compressed when asked, to GET and HEAD", async () => {
    const first = await get("/aktualnosci");
    expect(first.status).toBe(200);
    expect(first.body).toContain("render 1");
    const second = await get("/aktualnosci", { "Accept-Encoding": "gzip, deflate" });
    expect(rendered("/aktualnosci")).toBe(1);
    expect(second.body).toBe(first.body);
    expect(second.headers["content-encoding"]).toBe("gzip");
    expect(second.headers.etag).toBe(first.headers.etag);
    // Pages that print the host are never offered to a shared cache.
    expect(second.headers["cache-control"]).toBe(BROWSER_ONLY_CACHE);
    expect(second.headers.vary).toBe("Accept-Encoding");

    const head = await get("/aktualnosci", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    expect(Number(head.headers["content-length"])).toBe(Buffer.byteLength(first.body));

    const unchanged = await get("/aktualnosci", { "If-None-Match": first.headers.etag! });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body).toBe("");
    expect(rendered("/aktualnosci")).toBe(1);

    // A known query is a page of its own; the news list's page number is one.
    expect((await get("/aktualnosci?strona=2")).body).toContain("?strona=2 render 2");
    expect((await get("/aktualnosci?strona=2")).body).toContain("?strona=2 render 2");
  });

  it("that starts with HEAD fills the cache for the GET that follows", async () => {
    const head = await get("/galeria", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    expect((await get("/galeria")).body).toContain("render 1");
    expect(rendered("/galeria")).toBe(1);
  });

  it("requested by many at once is rendered once; an answer that is not kept is rendered for each", async () => {
    const many = await Promise.all(Array.from({ length: 10 }, () => get("/wolna")));
    expect(rendered("/wolna")).toBe(1);
    expect(new Set(many.map((a) => a.body)).size).toBe(1);
    await Promise.all(Array.from({ length: 5 }, () => get("/wolna-prywatna")));
    expect(rendered("/wolna-prywatna")).toBe(5);
  });

  it("is rendered again after contentChanged()", async () => {
    expect((await get("/")).body).toContain("render 1");
    expect((await get("/")).body).toContain("render 1");
    await contentChanged();
    const after = await get("/");
    expect(after.body).toContain("render 2");
    expect((await get("/")).body).toContain("render 2");
    expect(rendered("/")).toBe(2);
  });

  it("with the cookie notice accepted is kept apart from one without", async () => {
    const accepted = await acceptPolicyCookie.serialize("true");
    const cookie = accepted.split(";")[0];
    expect((await get("/")).body).not.toContain("acceptPolicy");
    expect((await get("/", { Cookie: cookie })).body).toContain("acceptPolicy");
    expect((await get("/")).body).not.toContain("acceptPolicy");
    expect((await get("/", { Cookie: cookie })).body).toContain("acceptPolicy");
    expect(rendered("/")).toBe(2);
  });
});

describe("the cache is neither read nor written", () => {
  it("by a request carrying a session cookie", async () => {
    for (const name of ["session", "__Host-session"]) {
      renders.clear();
      cache = createPageCache(options);
      // Not written: the anonymous view after it renders.
      expect((await get("/onas", { Cookie: `a=b; ${name}=sid` })).body).toContain("render 1");
      expect((await get("/onas")).body).toContain("render 2");
      // Not read: the kept anonymous page is not what the session gets.
      expect((await get("/onas", { Cookie: `${name}=sid` })).body).toContain("render 3");
      expect((await get("/onas")).body).toContain("render 2");
    }
  });

  it("for an answer that sets a cookie, is not a 200 or is not public", async () => {
    for (const path of ["/ciasteczko", "/brak", "/prywatna"]) {
      const first = await get(path);
      if (path === "/ciasteczko") expect(first.headers["set-cookie"]).toEqual(["flash=x; Path=/"]);
      if (path === "/brak") expect(first.status).toBe(404);
      await get(path);
      expect(rendered(path), path).toBe(2);
    }
    expect(cache.size().pages).toBe(0);
  });

  it("for Remix data requests, unknown queries, credentials, ranges, the pastor area and other methods", async () => {
    const cases: [string, Record<string, string>, string?][] = [
      ["/aktualnosci.data", {}],
      ["/_root.data", {}],
      ["/aktualnosci?_data=routes%2Faktualnosci._index", {}],
      ["/aktualnosci?strona=2&x=1", {}],
      ["/aktualnosci?strona=abc", {}],
      ["/galeria?strona=2", {}],
      // The calendar with the Google Calendar below it, shown on request.
      ["/kalendarz?google=1", {}],
      ["/kalendarz?miesiac=2026-12&google=1", {}],
      ["/kontakt", { Authorization: "Basic eDp5" }],
      ["/kontakt", { Range: "bytes=0-10" }],
      ["/strefapastora", {}],
      ["/strefapastora/artykuly", {}],
      ["/kontakt", {}, "POST"],
    ];
    for (const [path, headers, method] of cases) {
      renders.clear();
      await get(path, headers, method);
      await get(path, headers, method);
      expect(rendered(new URL(path, "http://x").pathname), `${method ?? "GET"} ${path}`).toBe(2);
    }
    expect(cache.size().pages).toBe(0);
  });
});

describe("the calendar with the Google Calendar asked for (?google=1)", () => {
  it("goes straight through while the calendar without it stays kept as before", async () => {
    const plain = await get("/kalendarz");
    expect((await get("/kalendarz")).body).toBe(plain.body);
    expect((await get("/kalendarz?miesiac=2026-12")).body).toContain("?miesiac=2026-12 render 2");
    expect((await get("/kalendarz?miesiac=2026-12")).body).toContain("?miesiac=2026-12 render 2");
    expect(rendered("/kalendarz")).toBe(2);
    for (let i = 0; i < 2; i++) {
      expect((await get("/kalendarz?google=1")).body).toContain("?google=1 render");
      expect((await get("/kalendarz?miesiac=2026-12&google=1")).body).toContain("&google=1 render");
    }
    expect(rendered("/kalendarz")).toBe(6);
    // The kept pages are still the ones without it.
    expect((await get("/kalendarz")).body).toBe(plain.body);
    expect((await get("/kalendarz?miesiac=2026-12")).body).toContain("?miesiac=2026-12 render 2");
    expect(cache.size().pages).toBe(2);
  });
});

describe("nothing a client sends reaches a page served to others", () => {
  it("a Host header is part of the key, and an odd one is not cached", async () => {
    const evil = await get("/kontakt", { host: "zlosliwy.example" });
    expect(evil.body).toContain("zlosliwy.example");
    const good = await get("/kontakt");
    expect(good.body).toContain("kosciol.example");
    expect(good.body).not.toContain("zlosliwy");

    // Neither kept under its own key nor under another.
    const odd = ['kosciol.example"><script>alert(1)</script>', "kosciol.example/../x", "a b"];
    for (const host of [...odd, ...odd]) expect((await get("/sluzby", { host })).body).toContain(host);
    await get("/sluzby", { "X-Forwarded-Host": "zlosliwy.example:8080" });
    await get("/sluzby", { "X-Forwarded-Host": "zlosliwy.example:8080" });
    expect(rendered("/sluzby")).toBe(8);
    expect(cache.size().pages).toBe(2);
    const clean = await get("/sluzby");
    expect(clean.body).toContain("render 9");
    expect(clean.body).not.toMatch(/script|zlosliwy|\.\.\//);
  });

  it("allows a kept page's inline scripts by their hash, not by a nonce every visitor would share", async () => {
    const first = await get("/skrypty");
    const second = await get("/skrypty");
    expect(rendered("/skrypty")).toBe(1);
    for (const res of [first, second]) {
      const policy = res.headers["content-security-policy"] as string;
      expect(policy).not.toContain("nonce");
      expect(res.body).not.toContain("nonce=");
      const hash = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
      expect(policy).toBe(
        `default-src 'self'; script-src 'self' ${hash('window.a = "ą";')} ${hash("window.b = 2;")}; object-src 'none'`,
      );
    }
  });

  it("with PUBLIC_URL set, pages do not print the host, so any host shares one copy", async () => {
    cache = createPageCache({ ...options, hostInPages: false });
    pagesPrintHost = false;
    await get("/kontakt", { host: "a.example" });
    const b = await get("/kontakt", { host: "b.example" });
    expect(rendered("/kontakt")).toBe(1);
    // Such a page may be kept by a CDN for a moment.
    expect(b.headers["cache-control"]).toBe(SHARED_CACHE);
  });
});

describe("the names visitors ask by (for the page warmer)", () => {
  it("are counted on pages served or kept, not on answers that are not kept nor on the warmer's own requests", async () => {
    for (let i = 0; i < 3; i++) await get("/kontakt");
    await get("/kontakt", { host: "inna.example:8080" });
    await get("/prywatna", { host: "sonda.example" });
    await get("/brak", { host: "sonda.example" });
    await get("/galeria", { host: "127.0.0.1:3000", "User-Agent": WARMER_AGENT });
    expect(cache.visitorHosts(3)).toEqual(["kosciol.example", "inna.example:8080"]);
  });

  it("are not counted with PUBLIC_URL set, where pages do not print the host", async () => {
    cache = createPageCache({ ...options, hostInPages: false });
    pagesPrintHost = false;
    await get("/kontakt");
    expect(cache.visitorHosts(3)).toEqual([]);
  });
});

describe("memory", () => {
  it("is bounded by bytes, the least recently used page going first", async () => {
    const size = 20_000;
    const page = (i: number) => `/duzy/${i}/${size}`;
    await get(page(0));
    const one = cache.size().bytes;
    expect(one).toBeGreaterThan(size);
    cache = createPageCache({ ...options, maxBytes: Math.floor(one * 3.5) });
    renders.clear();
    for (const i of [1, 2, 3]) await get(page(i));
    expect(cache.size().pages).toBe(3);
    await get(page(1)); // now the most recently used
    await get(page(4)); // pushes out page 2, the least recently used
    expect(cache.size().pages).toBe(3);
    expect(cache.size().bytes).toBeLessThanOrEqual(Math.floor(one * 3.5));
    for (const i of [1, 3, 4]) expect((await get(page(i))).body, page(i)).toContain("render 1");
    expect((await get(page(2))).body).toContain("render 2");

    // A page larger than the whole cache is served and not kept.
    cache = createPageCache({ ...options, maxBytes: size });
    await get(page(5));
    expect(cache.size()).toEqual({ bytes: 0, pages: 0 });
  });

  it("is not used at all when the size is 0", async () => {
    cache = createPageCache({ ...options, maxBytes: 0 });
    await get("/");
    await get("/");
    expect(rendered("/")).toBe(2);
  });
});
