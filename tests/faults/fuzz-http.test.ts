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

const ARTICLE = "1735000000000"; // demo content
const ALBUM = encodeURIComponent("Piknik zborowy 2025");
const EVENT = "1"; // a sample event, weekly
/** A day the sample event takes place, read from the calendar once the server runs. */
let eventDay = "";

// Every route module, by file, with an address that reaches it (demo
// content). A module added without an address here fails the test below.
const ROUTES: Record<string, () => string> = {
  "$.tsx": () => "/nie-ma-takiej-strony",
  "_index.tsx": () => "/",
  "akceptuje.tsx": () => "/akceptuje",
  "aktualnosci.$id.tsx": () => `/aktualnosci/${ARTICLE}`,
  "aktualnosci._index.tsx": () => "/aktualnosci",
  "aktualnosci.rss[.]xml.ts": () => "/aktualnosci/rss.xml",
  "galeria.$slug.tsx": () => `/galeria/${ALBUM}`,
  "galeria._index.tsx": () => "/galeria",
  "healthz.ts": () => "/healthz",
  "healthz_.dependencies.ts": () => "/healthz/dependencies",
  "kalendarz.$id.tsx": () => `/kalendarz/${EVENT}`,
  "kalendarz.$id_.$day.tsx": () => `/kalendarz/${EVENT}/${eventDay}`,
  "kalendarz._index.tsx": () => "/kalendarz",
  "kalendarz.google.tsx": () => "/kalendarz/google",
  "kalendarz[.]ics.ts": () => "/kalendarz.ics",
  "kod-przelewu[.]svg.ts": () => "/kod-przelewu.svg",
  "kontakt.tsx": () => "/kontakt",
  "onas._index.tsx": () => "/onas",
  "onas.swiadectwa.$id.tsx": () => "/onas/swiadectwa/1",
  "pliki.$.ts": () => "/pliki/galeria/nie-ma.jpg",
  "polityka-prywatnosci.tsx": () => "/polityka-prywatnosci",
  "readyz.ts": () => "/readyz",
  "robots[.]txt.ts": () => "/robots.txt",
  "sitemap[.]xml.ts": () => "/sitemap.xml",
  "sluzby.tsx": () => "/sluzby",
  "strefapastora._index.tsx": () => "/strefapastora",
  "strefapastora.artykuly.$id.tsx": () => `/strefapastora/artykuly/${ARTICLE}`,
  "strefapastora.artykuly.$id_.podglad.tsx": () => `/strefapastora/artykuly/${ARTICLE}/podglad`,
  "strefapastora.artykuly._index.tsx": () => "/strefapastora/artykuly",
  "strefapastora.artykuly.dodaj.tsx": () => "/strefapastora/artykuly/dodaj",
  "strefapastora.artykuly.dodaj.wyslij.ts": () => "/strefapastora/artykuly/dodaj/wyslij",
  "strefapastora.artykuly.edytuj.$id.tsx": () => `/strefapastora/artykuly/edytuj/${ARTICLE}`,
  "strefapastora.artykuly.edytuj.$id.wyslij.ts": () => `/strefapastora/artykuly/edytuj/${ARTICLE}/wyslij`,
  "strefapastora.dane-zboru.tsx": () => "/strefapastora/dane-zboru",
  "strefapastora.galeria.$slug.tsx": () => `/strefapastora/galeria/${ALBUM}`,
  "strefapastora.galeria.$slug_.podglad.tsx": () => `/strefapastora/galeria/${ALBUM}/podglad`,
  "strefapastora.galeria._index.tsx": () => "/strefapastora/galeria",
  "strefapastora.galeria.dodaj.tsx": () => "/strefapastora/galeria/dodaj",
  "strefapastora.galeria.dodaj.zdjecia.ts": () => "/strefapastora/galeria/dodaj/zdjecia",
  "strefapastora.galeria.edytuj.$slug.tsx": () => `/strefapastora/galeria/edytuj/${ALBUM}`,
  "strefapastora.historia-zmian.tsx": () => "/strefapastora/historia-zmian",
  "strefapastora.kosz.tsx": () => "/strefapastora/kosz",
  "strefapastora.logowanie.tsx": () => "/strefapastora/logowanie",
  "strefapastora.sluzby.tsx": () => "/strefapastora/sluzby",
  "strefapastora.swiadectwa._index.tsx": () => "/strefapastora/swiadectwa",
  "strefapastora.swiadectwa.dodaj.tsx": () => "/strefapastora/swiadectwa/dodaj",
  "strefapastora.swiadectwa.edytuj.$id.tsx": () => "/strefapastora/swiadectwa/edytuj/1",
  // The layout of the pastor area: every address under it passes through it.
  "strefapastora.tsx": () => "/strefapastora/urzadzenia",
  "strefapastora.urzadzenia.tsx": () => "/strefapastora/urzadzenia",
  "strefapastora.weryfikacja-dwuetapowa.tsx": () => "/strefapastora/weryfikacja-dwuetapowa",
  "strefapastora.wydarzenia._index.tsx": () => "/strefapastora/wydarzenia",
  "strefapastora.wydarzenia.dodaj.tsx": () => "/strefapastora/wydarzenia/dodaj",
  "strefapastora.wydarzenia.dodaj.wyslij.ts": () => "/strefapastora/wydarzenia/dodaj/wyslij",
  "strefapastora.wydarzenia.edytuj.$id.tsx": () => `/strefapastora/wydarzenia/edytuj/${EVENT}`,
  "strefapastora.wydarzenia.edytuj.$id.wyslij.ts": () => `/strefapastora/wydarzenia/edytuj/${EVENT}/wyslij`,
  "strefapastora.wydarzenia.edytuj.$id_.termin.$day.tsx": () =>
    `/strefapastora/wydarzenia/edytuj/${EVENT}/termin/${eventDay}`,
  "strefapastora.wyloguj.ts": () => "/strefapastora/wyloguj",
  "strefapastora.zdjecia-historii.tsx": () => "/strefapastora/zdjecia-historii",
};

it("has an address for every route module", () => {
  expect(Object.keys(ROUTES).sort()).toEqual(fs.readdirSync("app/routes").sort());
});

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
  const calendar = await (await fetch(`${server.base}/kalendarz`)).text();
  eventDay = new RegExp(`href="/kalendarz/${EVENT}/(\\d{4}-\\d{2}-\\d{2})"`).exec(calendar)![1];
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
    const routes = [...new Set(Object.values(ROUTES).map((address) => address()))];
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
    // The signed-in passes stayed signed in: no hostile post ended the session.
    expect(
      (await fetch(`${server.base}/strefapastora`, { headers: { Cookie: cookie }, redirect: "manual" })).status,
    ).toBe(200);
  },
  600_000,
);
