// Every route module of the pastor area, found on disk, refuses anonymous
// reads and writes and changes nothing: a new route that forgets
// `await requireUser(request)` fails here.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type ServerBuild, createRequestHandler } from "@remix-run/node";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { config } from "~/services/config.server";
import { db, rowsOf } from "~/services/db.server";
import { insertArticle, insertGallery } from "../fixtures";
import { PASTOR, addPastor, signIn } from "../auth-helpers";
import { request, resetDatabase, settle } from "../helpers";
import { dataRedirect, dataUrl } from "../single-fetch";

const routesDir = path.resolve("app/routes");
// The one public page of the area.
const PUBLIC = new Set(["strefapastora.logowanie"]);
const PANEL_HOME = "strefapastora._index";
// The area's layout renders only an <Outlet />; it must hold no data function
// (checked below), so there is nothing in it to guard or to rely on.
const LAYOUT = "strefapastora";

interface RouteFile {
  id: string;
  file: string;
}

/** Flat-route modules: files, or folders holding a route.* file. */
function pastorRoutes(): RouteFile[] {
  const found: RouteFile[] = [];
  for (const entry of fs.readdirSync(routesDir, { withFileTypes: true })) {
    if (!entry.name.startsWith("strefapastora")) continue;
    if (entry.isDirectory()) {
      const inner = fs.readdirSync(path.join(routesDir, entry.name)).find((f) => /^route\.[jt]sx?$/.test(f));
      if (inner) found.push({ id: entry.name, file: path.join(routesDir, entry.name, inner) });
    } else if (/\.[jt]sx?$/.test(entry.name) && !/\.test\./.test(entry.name)) {
      found.push({ id: entry.name.replace(/\.[jt]sx?$/, ""), file: path.join(routesDir, entry.name) });
    }
  }
  return found.filter((r) => !PUBLIC.has(r.id) && r.id !== LAYOUT).sort((a, b) => a.id.localeCompare(b.id));
}

const routes = pastorRoutes();
const ARTICLE_ID = "1700000000123";
const GALLERY_TITLE = "Obóz 2025";

/** URL and params for a flat route id; params name the seeded article or gallery. */
function urlFor(id: string) {
  const params: Record<string, string> = {};
  const segments: string[] = [];
  for (let seg of id.split(".")) {
    if (seg === "_index" || seg.startsWith("_")) continue;
    seg = seg.replace(/_$/, "").replace(/^\((.*)\)$/, "$1");
    if (seg === "$") {
      params["*"] = "x";
      segments.push("x");
    } else if (seg.startsWith("$")) {
      const name = seg.slice(1);
      const value = /slug|title|tytul/i.test(name) ? GALLERY_TITLE : ARTICLE_ID;
      params[name] = value;
      segments.push(encodeURIComponent(value));
    } else {
      segments.push(seg);
    }
  }
  return { path: `/${segments.join("/")}`, params };
}

/** Everything the database holds, table by table, plus the stored files. */
async function snapshot() {
  const d = await db();
  const tables = await rowsOf<{ table_name: string }>(
    d,
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const out: Record<string, unknown> = {};
  for (const { table_name } of tables) {
    const rows = await rowsOf(d, sql.raw(`select * from "${table_name}" order by 1`));
    out[table_name] = JSON.parse(JSON.stringify(rows));
  }
  const storage = config().storage;
  out.__files =
    storage.kind === "disk" && fs.existsSync(storage.dir)
      ? fs.readdirSync(storage.dir, { recursive: true }).sort()
      : [];
  return out;
}

function writeBodies(): { name: string; body: () => BodyInit }[] {
  const fields = {
    intent: "delete",
    id: ARTICLE_ID,
    title: "Nowa",
    tytul: "Nowa",
    header: "Nowy",
    text: "Treść",
    description: "Opis",
    date: "2025-01-01",
    email: "intruz@example.org",
    password: "haslo-intruza-123",
    csrf: "x".repeat(43),
  };
  return [
    { name: "form", body: () => new URLSearchParams(fields) },
    {
      name: "multipart",
      body: () => {
        const form = new FormData();
        for (const [k, v] of Object.entries(fields)) form.set(k, v);
        form.set("image", new Blob([Buffer.from([0xff, 0xd8, 0xff, 0xd9])], { type: "image/jpeg" }), "a.jpg");
        form.set("images", new Blob([Buffer.from([0xff, 0xd8, 0xff, 0xd9])], { type: "image/jpeg" }), "b.jpg");
        return form;
      },
    },
    { name: "json", body: () => JSON.stringify(fields) },
  ];
}

// Anonymous visitors as browsers send them: a plain page request, a Remix
// data request (JavaScript on), a stale or forged cookie. A data request
// goes through Remix's own handler, as from the browser (single fetch:
// `/path.data`), so that its redirect is checked where the router reads it.
const visitors: { name: string; headers: Record<string, string>; data?: boolean }[] = [
  { name: "no cookie", headers: {} },
  { name: "JS data request", headers: { Accept: "*/*" }, data: true },
  { name: "forged cookie", headers: { Cookie: "session=eyJzaWQiOiJ4In0%3D.forged" } },
  { name: "same-site Origin", headers: { Origin: "http://localhost", "Sec-Fetch-Site": "same-origin" } },
];

let handle: (request: Request) => Promise<Response>;

/** Checks that an answer is single fetch's, and where it sends the router. */
async function redirectOf(res: Response) {
  expect(res.headers.get("X-Remix-Response")).toBe("yes");
  expect(res.headers.get("Content-Type")).toBe("text/x-script");
  // Never stored, the area's home (/strefapastora.data) included.
  expect(res.headers.get("Cache-Control")).toBe("private, no-store");
  return dataRedirect(res.body!);
}

beforeAll(async () => {
  // The built server (npm test builds first): its routes are these files, compiled.
  const built = path.resolve("build/index.js");
  if (!fs.existsSync(built)) throw new Error("build/index.js missing: run `npm run build` first");
  const build = (await import(/* @vite-ignore */ pathToFileURL(built).href)) as ServerBuild;
  handle = createRequestHandler(build, "production");
  await resetDatabase();
  await addPastor();
  await signIn(PASTOR); // someone is signed in elsewhere; their session must not help
  await insertArticle({ id: ARTICLE_ID, header: "Istniejący" });
  await insertGallery({ title: GALLERY_TITLE }, [{ name: "1.jpg", key: "galeria/1.jpg" }]);
});

it("finds the pastor routes on disk", () => {
  const ids = routes.map((r) => r.id);
  expect(ids).toContain("strefapastora._index");
  expect(ids).toContain("strefapastora.wyloguj");
});

it("the area's layout loads nothing: each page guards itself", async () => {
  const layout = await import(/* @vite-ignore */ path.join(routesDir, `${LAYOUT}.tsx`));
  expect(layout.loader).toBeUndefined();
  expect(layout.action).toBeUndefined();
});

describe.each(routes)("$id", ({ id, file }) => {
  const { path: url, params } = urlFor(id);
  const expectedGet = id === PANEL_HOME ? "/strefapastora/logowanie" : "/";

  it("calls requireUser first in its loader and action", () => {
    const source = fs.readFileSync(file, "utf8");
    const exported = [
      ...source.matchAll(
        /export\s+(?:async\s+)?function\s+(loader|action)\s*\(|export\s+const\s+(loader|action)\b[^=]*=\s*(?:async\s*)?\(/g,
      ),
    ];
    expect(exported.map((m) => m[1] ?? m[2])).toContain("loader");
    for (const match of exported) {
      // Skip the parameter list (it may hold destructuring braces) to the body.
      let i = match.index! + match[0].length;
      for (let depth = 1; depth > 0; i++) {
        if (source[i] === "(") depth++;
        else if (source[i] === ")") depth--;
      }
      const body = source.slice(source.indexOf("{", i) + 1);
      const first = body.replace(/^(\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*/, "").split(/;|\n/)[0];
      expect(first, `${id}: first statement of ${match[1] ?? match[2]}`).toMatch(
        // requireUserOrKeep is requireUser that keeps a form posted after the session ended.
        /\bawait\s+requireUser(?:OrKeep)?\(\s*request\b/,
      );
    }
  });

  it("refuses anonymous GET and POST with a redirect and changes nothing", async () => {
    const mod = await import(/* @vite-ignore */ file);
    expect(typeof mod.loader, `${id} must export a loader that calls requireUser`).toBe("function");
    const before = await snapshot();

    for (const visitor of visitors) {
      const getUrl = visitor.data ? dataUrl(url) : url;
      const getRequest = request(getUrl, { headers: visitor.headers });
      if (visitor.data) {
        // 202: single fetch's status for a redirect the router follows.
        const res = await handle(getRequest);
        expect(res.status, `GET ${getUrl} (${visitor.name})`).toBe(202);
        expect(await redirectOf(res), `GET ${getUrl} (${visitor.name})`).toBe(expectedGet);
      } else {
        const res = await settle(() => mod.loader({ request: getRequest, params, context: {} }));
        expect(res.status, `GET ${getUrl} (${visitor.name})`).toBe(302);
        expect(res.headers.get("Location")).toBe(expectedGet);
      }

      if (typeof mod.action !== "function") continue;
      for (const { name, body } of writeBodies()) {
        const postUrl = visitor.data ? dataUrl(url, { index: id.endsWith("._index") }) : url;
        const postRequest = request(postUrl, { method: "POST", body: body(), headers: visitor.headers });
        const res = visitor.data
          ? await handle(postRequest)
          : await settle(() => mod.action({ request: postRequest, params, context: {} }));
        expect(res.status, `POST ${postUrl} ${name} (${visitor.name})`).toBe(visitor.data ? 202 : 302);
        const target = visitor.data ? await redirectOf(res) : res.headers.get("Location");
        expect(["/", "/strefapastora/logowanie"], `POST ${postUrl} ${name} (${visitor.name})`).toContain(target);
      }
    }

    expect(await snapshot()).toEqual(before);
  });
});
