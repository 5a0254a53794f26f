// The page cache in the built server, without PUBLIC_URL (pages then print
// the address each request came to): what one client sends as Host or
// X-Forwarded-Host never shows in the page another client gets, and kept
// pages are the ones Remix rendered, byte for byte, gzipped or not.
import http from "node:http";
import zlib from "node:zlib";
import postgres from "postgres";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createScratchDatabase, postgresAvailable } from "../setup/database";
import { type RunningServer, startBuiltServer } from "./server";

let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
let server: RunningServer;

beforeAll(async () => {
  if (await postgresAvailable()) scratch = await createScratchDatabase("pagecache");
  server = await startBuiltServer({
    ...(scratch ? { DATABASE_URL: scratch.url } : { DATABASE_URL: "memory:" }),
    SEED_DEMO: "1",
    PUBLIC_URL: "",
    LOG_LEVEL: "debug",
  });
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await scratch?.drop();
});

function get(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: server.port, path, headers: { host: `127.0.0.1:${server.port}`, ...headers } },
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

const cacheLines = (path: string) =>
  server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{") && line.includes('"page cache '))
    .map((line) => JSON.parse(line) as { path: string; msg: string })
    .filter((entry) => entry.path === path)
    .map((entry) => entry.msg.replace("page cache ", ""));

it("a foreign Host or X-Forwarded-Host reaches only the page its sender gets", async () => {
  const evil = await get("/aktualnosci", { host: "zlosliwy.example" });
  expect(evil.body).toContain("http://zlosliwy.example/aktualnosci");
  // Without TRUST_PROXY no client names the host through X-Forwarded-Host.
  const port = await get("/aktualnosci", { "X-Forwarded-Host": "zlosliwy.example:6666" });
  expect(port.status).toBe(200);
  expect(port.body).toContain(`http://127.0.0.1:${server.port}/aktualnosci`);
  expect(port.body).not.toContain("6666");
  // A Host no browser sends is refused before anything prints it.
  for (const host of ['x"><script>alert(1)</script>', "x:99999", "x:0", `${"a".repeat(40)}!`]) {
    const refused = await get("/aktualnosci", { host });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain("Nieprawidłowe żądanie");
    expect(refused.body).not.toContain("<script>alert");
  }

  for (let i = 0; i < 2; i++) {
    const page = await get("/aktualnosci");
    expect(page.status).toBe(200);
    expect(page.body).toContain(`http://127.0.0.1:${server.port}/aktualnosci`);
    expect(page.body).not.toMatch(/zlosliwy|6666|<script>alert/);
  }
});

it("renders a public page once, then serves Remix's bytes from memory, gzipped when asked", async () => {
  const first = await get("/galeria");
  const second = await get("/galeria", { "Accept-Encoding": "gzip" });
  expect(second.headers["content-encoding"]).toBe("gzip");
  expect(second.body).toBe(first.body);
  expect(second.headers.etag).toBe(first.headers.etag);
  expect(second.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
  const unchanged = await get("/galeria", { "If-None-Match": first.headers.etag! });
  expect(unchanged.status).toBe(304);
  // The log arrives through a pipe, a moment after the answer.
  await expect.poll(() => cacheLines("/galeria")).toEqual(["miss", "hit", "hit"]);

  // A session cookie goes straight to Remix, neither reading nor filling the cache.
  const withSession = await get("/galeria", { Cookie: "__Host-session=abc" });
  expect(withSession.status).toBe(200);
  await get("/galeria");
  await expect.poll(() => cacheLines("/galeria")).toEqual(["miss", "hit", "hit", "hit"]);
});

it("a page kept before a scheduled article's moment is not served after it", async (ctx) => {
  // The article is written behind the server's back (no save, no version bump): only the schedule can move the page.
  if (!scratch) return ctx.skip();
  const sql = postgres(scratch.url, { max: 1, onnotice: () => {} });
  try {
    const header = `Zaplanowany ${Date.now()}`;
    const due = new Date(Date.now() + 3_000);
    await sql`insert into articles (id, header, text, date, publish_at)
      values (${String(Date.now())}, ${header}, 'Treść', '2001-01-01', ${due})`;
    // Before the moment: absent, and served from memory.
    const hits = () => cacheLines("/aktualnosci").filter((m) => m === "hit").length;
    const hitsBefore = hits();
    const before = await get("/aktualnosci");
    expect(before.body).not.toContain(header);
    const kept = await get("/aktualnosci");
    expect(kept.body).toBe(before.body);
    expect(Date.now()).toBeLessThan(due.getTime());
    await expect.poll(hits).toBeGreaterThan(hitsBefore);
    // After it: there by itself, with a new validator, so a browser's copy is not kept either.
    await expect
      .poll(async () => (await get("/aktualnosci")).body.includes(header), { timeout: 20_000, interval: 250 })
      .toBe(true);
    expect(Date.now()).toBeGreaterThanOrEqual(due.getTime());
    const after = await get("/aktualnosci", { "If-None-Match": before.headers.etag! });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  } finally {
    await sql.end();
  }
});
