// The pastor area while the database is away (issue 27, item 3): a post is
// answered in Polish with everything typed kept in a form that sends it
// again (photos named, not kept), other pages say the area is unavailable,
// and nothing half-written is there when the database returns. The database
// is real; it becomes unreachable through a TCP proxy that is cut.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTcpProxy, throughProxy } from "../tcp-proxy";
import { allowConsoleError } from "../helpers";
import { decode } from "turbo-stream";

// Before anything opens the database: every connection goes through the proxy.
const realUrl = process.env.DATABASE_URL!;
const postgres = realUrl.startsWith("postgres");
const proxy = postgres ? await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(realUrl).port || 5432) }) : null;
if (proxy) process.env.DATABASE_URL = throughProxy(realUrl, proxy.port);

const { handleError } = await import("~/entry.server");
const { notSavedPage, pastorDoor } = await import("~/http/pastor-door.server");
const { requestContext } = await import("~/http/request-context.server");
const { unavailableResponse } = await import("~/http/unavailable.server");
const { withDb } = await import("~/services/db.server");
const { articles, churchFacts } = await import("~/services/schema");
const factsRoute = await import("~/routes/strefapastora.dane-zboru");
const addArticleRoute = await import("~/routes/strefapastora.artykuly.dodaj");
const panelRoute = await import("~/routes/strefapastora._index");
const editEventRoute = await import("~/routes/strefapastora.wydarzenia.edytuj.$id");
const { addPastor, signIn } = await import("../auth-helpers");
const { resetDatabase, settle } = await import("../helpers");

type Route = { loader?: (a: never) => unknown; action?: (a: never) => unknown };
const ROUTES: Record<string, Route> = {
  "/strefapastora": panelRoute,
  // The router's data requests (single fetch) for the same pages.
  "/strefapastora.data": panelRoute,
  "/strefapastora/dane-zboru.data": factsRoute,
  "/strefapastora/dane-zboru": factsRoute,
  "/strefapastora/artykuly/dodaj": addArticleRoute,
  "/strefapastora/wydarzenia/edytuj/1": editEventRoute,
};

/**
 * The front door's part as the server runs it (request context, then the
 * pastor door), and Remix's part reduced to what matters here: the route's
 * loader or action, and the server entry's handleError for a thrown error.
 */
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    requestContext.run({ clientAddress: "127.0.0.1" }, () =>
      pastorDoor(req, res, async () => {
        const url = new URL(req.url ?? "/", base);
        const request = new Request(url, {
          method: req.method,
          headers: req.headers as Record<string, string>,
          body: req.method === "POST" ? createReadableStreamFromReadable(req) : undefined,
          duplex: "half",
        } as RequestInit);
        const route = ROUTES[url.pathname];
        const fn = req.method === "POST" ? route.action : route.loader;
        let answer: Response;
        try {
          answer = await settle(() => fn!({ request, params: {}, context: {} } as never));
        } catch (error) {
          handleError(error, { request });
          answer = unavailableResponse();
        }
        res.writeHead(answer.status, Object.fromEntries(answer.headers));
        res.end(Buffer.from(await answer.arrayBuffer()));
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await proxy?.close();
});

/** Fields of a page's forms: inputs (with a value) and textareas, in order. */
function formFields(html: string): [string, string][] {
  const fields: [string, string][] = [];
  const tag = /<(input|textarea)\b([^>]*)>/g;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    const name = /\bname="([^"]*)"/.exec(m[2])?.[1];
    if (!name) continue;
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
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&");

const LONG_TEXT = "Zbór zaprasza na nabożeństwa w każdą niedzielę.\n\nDruga linia: „cytat” & <znaki>.";

describe.skipIf(!postgres)("the pastor area while the database is away", () => {
  let cookie: string;
  let csrf: string;
  let facts: { values: Record<string, unknown>; version: string };

  beforeAll(async () => {
    await resetDatabase();
    await addPastor();
    cookie = await signIn();
    const page = await fetch(`${base}/strefapastora/dane-zboru`, { headers: { Cookie: cookie } });
    const loaded = (await page.json()) as { csrf: string; state: typeof facts };
    csrf = loaded.csrf;
    facts = loaded.state;
  });

  it("answers a post with 'Nie zapisano zmian' and every field typed, and other pages in Polish", async () => {
    allowConsoleError();
    proxy!.cut();
    try {
      // 'Dane zboru': a url-encoded form.
      const form = new URLSearchParams({ csrf, version: String(facts.version) });
      for (const [k, v] of Object.entries(facts.values)) if (typeof v === "string") form.set(k, v);
      form.set("name", "Zbór po awarii");
      form.set("about", LONG_TEXT);
      const res = await fetch(`${base}/strefapastora/dane-zboru`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
        body: form,
        redirect: "manual",
      });
      expect(res.status).toBe(503);
      expect(res.headers.get("Retry-After")).toBe("5");
      expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toContain("<h1>Nie zapisano zmian</h1>");
      expect(html).toContain("spróbuj ponownie");
      expect(html).toContain('action="/strefapastora/dane-zboru"');
      const kept = new Map(formFields(html));
      expect(kept.get("name")).toBe("Zbór po awarii");
      expect(kept.get("about")).toBe(LONG_TEXT);
      expect(kept.get("csrf")).toBe(csrf);
      expect(kept.get("version")).toBe(String(facts.version));
      expect(html).toContain(">Nazwa zboru<");

      // A new article: multipart, with a photo that is named but not kept.
      const article = new FormData();
      article.set("csrf", csrf);
      article.set("header", "Tytuł z awarii");
      article.set("text", LONG_TEXT);
      article.set("date", "2026-11-29");
      article.set("image", new Blob([Buffer.alloc(300_000, 7)], { type: "image/jpeg" }), "IMG_2041.jpg");
      const added = await fetch(`${base}/strefapastora/artykuly/dodaj`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: base },
        body: article,
        redirect: "manual",
      });
      expect(added.status).toBe(503);
      const addedHtml = await added.text();
      expect(addedHtml).toContain("Nie zapisano zmian");
      expect(addedHtml).toContain('enctype="multipart/form-data"');
      expect(addedHtml).toContain("Tych zdjęć nie zachowano, dodaj je ponownie:");
      expect(addedHtml).toContain("<li>IMG_2041.jpg</li>");
      const keptArticle = new Map(formFields(addedHtml));
      expect(keptArticle.get("header")).toBe("Tytuł z awarii");
      // A multipart body carries line ends as CRLF, as a browser sends them.
      expect(keptArticle.get("text")?.replaceAll("\r\n", "\n")).toBe(LONG_TEXT);
      expect(keptArticle.has("image")).toBe(false);

      // The upload script's post gets JSON; its form is still on the page.
      const scripted = await fetch(`${base}/strefapastora/artykuly/dodaj`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: base, Accept: "application/json" },
        body: article,
      });
      expect(scripted.status).toBe(503);
      expect(await scripted.json()).toEqual({ error: expect.stringContaining("Nie zapisano zmian") });

      // An event's edit page (its address carries the id): the fields named as the event form names them.
      const event = await fetch(`${base}/strefapastora/wydarzenia/edytuj/1`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrf, title: "Wieczór uwielbienia", startDate: "2026-12-04", startTime: "19:00" }),
        redirect: "manual",
      });
      expect(event.status).toBe(503);
      const eventHtml = await event.text();
      expect(new Map(formFields(eventHtml)).get("startDate")).toBe("2026-12-04");
      expect(eventHtml).toContain(">Początek: dzień<");
      expect(eventHtml).toContain(">Początek: godzina<");
      expect(eventHtml).toContain(">Tytuł<");

      // Any other page of the area.
      const panel = await fetch(`${base}/strefapastora`, { headers: { Cookie: cookie } });
      expect(panel.status).toBe(503);
      expect(panel.headers.get("Retry-After")).toBe("5");
      const panelHtml = await panel.text();
      expect(panelHtml).toContain("<h1>Strefa pastora chwilowo niedostępna</h1>");
      expect(panelHtml).not.toContain("Serwis chwilowo niedostępny");
      // 'Odśwież' asks for the page he was opening, not the panel.
      const addPage = await fetch(`${base}/strefapastora/artykuly/dodaj?zachowane=x&y=1`, {
        headers: { Cookie: cookie },
      });
      expect(addPage.status).toBe(503);
      expect(await addPage.text()).toContain('<a href="/strefapastora/artykuly/dodaj?zachowane=x&amp;y=1">Odśwież</a>');
    } finally {
      proxy!.restore();
    }
  });

  it("leaves nothing half-written, and the kept form saves once the database is back", async () => {
    const [stored] = await withDb((db) => db.select({ version: churchFacts.version }).from(churchFacts));
    expect(String(stored?.version ?? facts.version)).toBe(String(facts.version));
    expect(await withDb((db) => db.select().from(articles))).toEqual([]);

    // The page of the outage, sent again as it is.
    proxy!.cut();
    const form = new URLSearchParams({ csrf, version: String(facts.version) });
    for (const [k, v] of Object.entries(facts.values)) if (typeof v === "string") form.set(k, v);
    form.set("name", "Zbór po awarii");
    allowConsoleError();
    const html = await (
      await fetch(`${base}/strefapastora/dane-zboru`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
        body: form,
      })
    ).text();
    proxy!.restore();
    const again = await fetch(`${base}/strefapastora/dane-zboru`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(formFields(html)),
      redirect: "manual",
    });
    expect(again.status).toBe(302);
    const page = await fetch(`${base}/strefapastora/dane-zboru`, { headers: { Cookie: cookie } });
    expect(((await page.json()) as { state: typeof facts }).state.values.name).toBe("Zbór po awarii");
  });
});

/** A single-fetch body as Remix's browser code reads it (its redirect tag included). */
async function decodeScriptAnswer(res: Response): Promise<unknown> {
  const redirect = Symbol("SingleFetchRedirect");
  const decoded = await decode(res.body!, {
    plugins: [
      (type: string, ...rest: unknown[]) =>
        type === "SingleFetchRedirect" ? { value: { [redirect]: rest[0] } } : undefined,
    ],
  });
  await decoded.done;
  const value = decoded.value as Record<string | symbol, unknown>;
  return redirect in value ? { redirect: value[redirect] } : value;
}

describe.skipIf(!postgres)("the router's data requests while the database is away", () => {
  let cookie: string;
  let csrf: string;

  beforeAll(async () => {
    await resetDatabase();
    await addPastor();
    cookie = await signIn();
    csrf = (
      (await (await fetch(`${base}/strefapastora/dane-zboru`, { headers: { Cookie: cookie } })).json()) as {
        csrf: string;
      }
    ).csrf;
  });

  it("answers a script's post with an error the page shows, and a page's data with a reload of the page", async () => {
    allowConsoleError();
    proxy!.cut();
    try {
      const posted = await fetch(`${base}/strefapastora/dane-zboru.data`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrf, name: "Zbór" }),
      });
      expect(posted.status).toBe(503);
      expect(posted.headers.get("Content-Type")).toBe("text/x-script");
      expect(await decodeScriptAnswer(posted)).toEqual({
        data: { error: "Nie zapisano zmian: baza danych jest chwilowo niedostępna. Spróbuj ponownie za kilka sekund." },
      });

      const panel = await fetch(`${base}/strefapastora.data?_routes=root%2Croutes%2Fstrefapastora._index`, {
        headers: { Cookie: cookie },
      });
      expect(panel.status).toBe(503);
      expect(await decodeScriptAnswer(panel)).toEqual({
        redirect: { redirect: "/strefapastora", status: 302, revalidate: false, reload: true, replace: true },
      });
    } finally {
      proxy!.restore();
    }
  });
});

describe("the 'not saved' page's fields", () => {
  const recorded = (fields: [string, string][]) => ({ fields, files: [], cut: false, multipart: false });

  it("shows a form's checkboxes as checkboxes, ticked as they were sent", () => {
    const html = notSavedPage(
      "/strefapastora/swiadectwa/dodaj",
      recorded([
        ["csrf", "t"],
        ["title", "Świadectwo"],
        ["hidden", "1"],
      ]),
    );
    expect(html).toMatch(/<input type="checkbox" id="pole-2" name="hidden" value="1" checked> Ukryte \(szkic/);
    // Unticked (so not sent), it is there to be ticked.
    const unticked = notSavedPage("/strefapastora/swiadectwa/edytuj/3", recorded([["title", "Świadectwo"]]));
    expect(unticked).toMatch(/<input type="checkbox" id="pole-1" name="hidden" value="1">/);
    // A button's form (nothing typed) gets none.
    const button = notSavedPage(
      "/strefapastora/swiadectwa",
      recorded([
        ["csrf", "t"],
        ["intent", "delete"],
        ["id", "3"],
      ]),
    );
    expect(button).not.toContain('type="checkbox"');
    // An event's days, named as the form names them; moving one date shows none of them.
    const event = notSavedPage(
      "/strefapastora/wydarzenia/dodaj",
      recorded([
        ["title", "Wieczór"],
        ["day-FR", "1"],
      ]),
    );
    expect(event).toContain('name="day-FR" value="1" checked> W dni: piątek</label>');
    expect(event).toContain('name="allDay" value="1"> Cały dzień');
    const moved = notSavedPage(
      "/strefapastora/wydarzenia/edytuj/4/termin/2027-01-15",
      recorded([
        ["date", "2027-01-16"],
        ["time", "18:00"],
      ]),
    );
    expect(moved).not.toContain('type="checkbox"');
    expect(moved).toContain(">Godzina<");
  });

  it("never writes a password or a code back into the page", () => {
    const html = notSavedPage(
      "/strefapastora/weryfikacja-dwuetapowa",
      recorded([
        ["csrf", "t"],
        ["intent", "disable"],
        ["codeOrPassword", "tajne-haslo-pastora"],
      ]),
    );
    expect(html).not.toContain("tajne-haslo-pastora");
    expect(html).toContain(
      '<label for="pole-2">Kod z aplikacji lub hasło</label><input id="pole-2" name="codeOrPassword" type="password" required>',
    );
  });
});
