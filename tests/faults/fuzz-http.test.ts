// Every route of the built server, signed in and not, sent what no browser
// sends: Host and X-Forwarded-Host with impossible ports and letters, paths
// in other spellings and 8 KB long, 1,000 query parameters, bodies chunked
// without a length, declared as 50 MB, cut off mid-way, with a wrong or no
// Content-Type. No answer may be a 5xx, no stack trace may reach the log,
// the server's own event loop may never stall for more than 500 ms, and its
// memory comes back to within 20 % of where it started. Requests are written
// on raw sockets: fetch would refuse most of them before they left.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createScratchDatabase, postgresAvailable } from "../setup/database";
import { type RunningServer, signInTo, startBuiltServer } from "./server";

const hasPostgres = await postgresAvailable();
const EMAIL = "fuzz-http@example.org";
const PASSWORD = "fuzz-haslo-12345";
const MONITOR = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "zbor-fuzz-")), "loop.json");

const PUBLIC = [
  "/",
  "/onas",
  "/onas/swiadectwa/1",
  "/aktualnosci",
  "/aktualnosci/1735000000000",
  "/aktualnosci/rss.xml",
  "/galeria",
  "/galeria/Piknik%20zborowy%202025",
  "/sluzby",
  "/kontakt",
  "/kalendarz",
  "/polityka-prywatnosci",
  "/sitemap.xml",
  "/kod-przelewu.svg",
  "/pliki/galeria/nie-ma.jpg",
  "/healthz",
  "/readyz",
];
const PASTOR = [
  "/strefapastora",
  "/strefapastora/logowanie",
  "/strefapastora/artykuly",
  "/strefapastora/artykuly/dodaj",
  "/strefapastora/artykuly/1735000000000",
  "/strefapastora/galeria",
  "/strefapastora/galeria/dodaj",
  "/strefapastora/galeria/dodaj/zdjecia",
  "/strefapastora/dane-zboru",
  "/strefapastora/sluzby",
  "/strefapastora/swiadectwa",
  "/strefapastora/kosz",
  "/strefapastora/urzadzenia",
  "/strefapastora/historia-zmian",
  "/strefapastora/weryfikacja-dwuetapowa",
];

let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
let server: RunningServer;
let cookie = "";

beforeAll(async () => {
  if (!hasPostgres) return;
  scratch = await createScratchDatabase("fuzzhttp");
  server = await startBuiltServer({
    DATABASE_URL: scratch.url,
    SEED_DEMO: "1",
    ADMIN_EMAIL: EMAIL,
    ADMIN_PASSWORD: PASSWORD,
    // As the image runs it: memory handed back to the system.
    MALLOC_ARENA_MAX: "2",
    MALLOC_MMAP_THRESHOLD_: "131072",
    LOOP_MONITOR_FILE: MONITOR,
    NODE_OPTIONS: `--expose-gc --import ${path.resolve("tests/faults/loop-monitor.mjs")}`,
  });
  cookie = await signInTo(server, EMAIL, PASSWORD);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await scratch?.drop();
  fs.rmSync(path.dirname(MONITOR), { recursive: true, force: true });
});

/** The server's event-loop delay since the last reading and its memory, after a full collection. */
async function reading(): Promise<{ maxDelayMs: number; rssBytes: number }> {
  fs.rmSync(MONITOR, { force: true });
  fs.writeFileSync(`${MONITOR}.ask`, "");
  for (let i = 0; i < 100; i++) {
    if (fs.existsSync(MONITOR)) return JSON.parse(fs.readFileSync(MONITOR, "utf8"));
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the server wrote no reading");
}

interface RawBody {
  /** Bytes to send (or to declare, when cut short). */
  size: number;
  chunked?: boolean;
  /** Close the connection after this many bytes. */
  cutAfter?: number;
}

/**
 * One request written byte for byte; the status of its answer, or null when
 * the server closed without one (allowed only for a body cut off mid-way).
 */
function raw(head: string, body?: RawBody): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, "127.0.0.1");
    let answer = "";
    let answered = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(`no answer within 20 s: ${head.replace(/Cookie: [^\r]*/, "Cookie: …")} ${JSON.stringify(body)}`),
      );
    }, 20_000);
    socket.on("data", (d) => {
      // Answered before the whole body went: stop sending, as a browser does.
      if (!answered && body) setTimeout(() => socket.destroy(), 100);
      answered = true;
      if (answer.length < 200) answer += d.toString("latin1");
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      resolve(status ? Number(status[1]) : null);
    });
    socket.write(head);
    if (!body) return;
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    const pump = () => {
      while (!answered && !socket.destroyed && sent < (body.cutAfter ?? body.size)) {
        const part = chunk.subarray(0, Math.min(chunk.length, (body.cutAfter ?? body.size) - sent));
        sent += part.length;
        const framed = body.chunked
          ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from("\r\n")])
          : part;
        if (!socket.write(framed)) return void socket.once("drain", pump);
      }
      if (body.cutAfter !== undefined) setTimeout(() => socket.destroy(), 200);
      else if (body.chunked && !answered) socket.write("0\r\n\r\n");
    };
    pump();
  });
}

function request(
  method: string,
  target: string,
  headers: Record<string, string | undefined>,
  signedIn: boolean,
): string {
  const lines = [`${method} ${target} HTTP/1.1`];
  const all: Record<string, string | undefined> = {
    Host: `127.0.0.1:${server.port}`,
    Connection: "close",
    ...(signedIn ? { Cookie: cookie, Origin: server.base } : {}),
    ...headers,
  };
  for (const [name, value] of Object.entries(all)) if (value !== undefined) lines.push(`${name}: ${value}`);
  return `${lines.join("\r\n")}\r\n\r\n`;
}

/** Other spellings of a path: case, an escaped letter, a trailing and a doubled slash, 8 KB long. */
function spellings(p: string): string[] {
  const i = p.search(/[a-z]/);
  const escaped = i < 0 ? p : `${p.slice(0, i)}%${p.charCodeAt(i).toString(16)}${p.slice(i + 1)}`;
  return [p.toUpperCase(), escaped, `${p}/`, `/${p}`, `${p}/${"x".repeat(8 * 1024)}`];
}

it.runIf(hasPostgres)(
  "answers every hostile request without a 5xx, a stack trace, a stalled event loop or kept memory",
  async () => {
    const routes = [...PUBLIC, ...PASTOR];
    const thousandParams = Array.from({ length: 1000 }, (_, i) => `p${i}=${i}`).join("&");
    const badHosts = ["127.0.0.1:0", "127.0.0.1:65536", "127.0.0.1:99999", "127.0.0.1:abc", `${"a".repeat(40)}_`];

    // A first pass of ordinary requests: what the server keeps after it (code,
    // caches, connections) is its starting point.
    for (const signedIn of [false, true]) {
      for (const route of routes) expect(await raw(request("GET", route, {}, signedIn)), route).toBeLessThan(500);
    }
    const start = await reading();

    const bad: string[] = [];
    const check = async (label: string, head: string, body?: RawBody) => {
      const status = await raw(head, body);
      if (status === null ? body?.cutAfter === undefined : status >= 500) bad.push(`${label}: ${status}`);
    };
    for (const signedIn of [false, true]) {
      const who = signedIn ? "signed in" : "anonymous";
      for (const route of routes) {
        for (const host of badHosts) {
          await check(`${who} ${route} Host ${host}`, request("GET", route, { Host: host }, signedIn));
          await check(
            `${who} ${route} X-Forwarded-Host ${host}`,
            request("GET", route, { "X-Forwarded-Host": host }, signedIn),
          );
        }
        for (const spelling of spellings(route)) {
          await check(`${who} ${spelling.slice(0, 80)}`, request("GET", spelling, {}, signedIn));
        }
        await check(`${who} ${route}?1000 parameters`, request("GET", `${route}?${thousandParams}`, {}, signedIn));

        const post = (headers: Record<string, string | undefined>) => request("POST", route, headers, signedIn);
        const form = "application/x-www-form-urlencoded";
        await check(`${who} POST ${route} chunked`, post({ "Content-Type": form, "Transfer-Encoding": "chunked" }), {
          size: 256 * 1024,
          chunked: true,
        });
        await check(`${who} POST ${route} cut`, post({ "Content-Type": form, "Content-Length": "1000000" }), {
          size: 1_000_000,
          cutAfter: 300_000,
        });
        await check(`${who} POST ${route} no type`, post({ "Content-Length": "11" }), { size: 11 });
        await check(`${who} POST ${route} wrong type`, post({ "Content-Type": "text/plain", "Content-Length": "11" }), {
          size: 11,
        });
        await check(
          `${who} POST ${route} multipart without boundary`,
          post({ "Content-Type": "multipart/form-data", "Content-Length": "11" }),
          { size: 11 },
        );
      }
    }
    // 50 MB declared, to the upload addresses and the sign-in: refused or read
    // and dropped, never buffered into memory.
    for (const route of [
      "/strefapastora/logowanie",
      "/strefapastora/artykuly/dodaj",
      "/strefapastora/galeria/dodaj/zdjecia",
      "/aktualnosci",
    ]) {
      await check(
        `POST ${route} 50 MB`,
        request(
          "POST",
          route,
          { "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(50 * 1024 * 1024) },
          true,
        ),
        { size: 50 * 1024 * 1024 },
      );
    }
    expect(bad).toEqual([]);

    const end = await reading();
    // A backtracking check or a body read whole would stall every visitor.
    expect(end.maxDelayMs).toBeLessThan(500);
    // Memory comes back (the allocator returns freed buffers over a few seconds).
    let rss = end.rssBytes;
    for (let i = 0; i < 10 && rss >= start.rssBytes * 1.2; i++) {
      await new Promise((r) => setTimeout(r, 500));
      rss = (await reading()).rssBytes;
    }
    expect(rss).toBeLessThan(start.rssBytes * 1.2);
    // Nothing reached the log as a stack trace.
    expect(server.output()).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
    expect((await fetch(`${server.base}/readyz`)).status).toBe(200);
  },
  600_000,
);
