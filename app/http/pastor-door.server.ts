import type { IncomingMessage, ServerResponse } from "node:http";
import busboy from "busboy";
import { encode } from "turbo-stream";
import { fallbackDocument } from "~/http/fallback-pages.server";
import { CSRF_FIELD } from "~/lib/csrf";
import { PANEL_PATH, isPastorPath } from "~/lib/paths";
import { requestContext } from "~/http/request-context.server";
import { logger } from "~/services/logger.server";

/**
 * The pastor area's answer while the database cannot be reached, decided in
 * one place for every page and action under /strefapastora.
 *
 * Whatever route meets the outage (the session is read from the database, so
 * usually the first line of a loader or action), the server's entry marks the
 * request (markDatabaseUnavailable) and this door replaces the answer:
 * - a post: 503 'Nie zapisano zmian', with every field the pastor sent back in
 *   a form that posts them again to the same address, and the names of the
 *   photos, which are not kept (they can be megabytes; the phone still has them);
 * - any other page: 503 'Strefa pastora chwilowo niedostępna';
 * - the upload script (Accept: application/json): a 503 JSON message; its
 *   form is still in the browser with everything typed;
 * - the router's data requests (single fetch, `/path.data`): a post gets the
 *   action answer `{ error }` (503) that the page shows beside its form, still
 *   filled in, instead of the error page a body it cannot decode would bring;
 *   a page's data is answered by a reload of the page, which is then the
 *   Polish page above.
 * Every write under the area runs in one transaction or not at all, so
 * nothing half-written remains when the database returns.
 *
 * The fields are recorded as the body passes on its way to the route (the
 * request's 'data' events are observed, not consumed), at most KEPT_MAX_BYTES
 * of them; when the route never read the body, the door reads the rest.
 */

/** The most of a form's text kept for the answer (the largest small form: 'dane zboru'). */
export const KEPT_MAX_BYTES = 1024 * 1024;

export const PASTOR_OUTAGE = {
  notSaved: "Nie zapisano zmian",
  notSavedText:
    "Baza danych jest chwilowo niedostępna, więc zmiany nie zostały zapisane. Wszystko, co wpisano, jest poniżej: spróbuj ponownie za kilka sekund.",
  photosLost: "Tych zdjęć nie zachowano, dodaj je ponownie:",
  retry: "Spróbuj ponownie zapisać",
  areaDown: "Strefa pastora chwilowo niedostępna",
  areaDownText: "Baza danych jest chwilowo niedostępna. Spróbuj ponownie za kilka sekund.",
  json: "Nie zapisano zmian: baza danych jest chwilowo niedostępna. Spróbuj ponownie za kilka sekund.",
} as const;

/** Called by the server's entry when a request met an unreachable database. */
export function markDatabaseUnavailable() {
  const store = requestContext.getStore();
  if (store) store.databaseUnavailable = true;
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

// Fields the pages carry for the server, not typed by the pastor: posted again unseen.
const HIDDEN = new Set([CSRF_FIELD, "intent", "version", "baseImage", "albumId", "redirectTo", "confirmed", "id"]);

// Fields never written back into a page: a password (or a code) typed once
// is asked for again, in an empty field of this type.
const SECRETS: Record<string, "password" | "text"> = { password: "password", codeOrPassword: "password", code: "text" };

interface PageFields {
  labels: Record<string, string>;
  /** Checkboxes of the page's forms: shown as checkboxes, ticked when sent (an unticked one is not sent). */
  checkboxes: string[];
}

// Pages whose fields have labels of their own (set by the server's entry:
// this layer does not import features).
const pageFields = new Map<string, PageFields>();

/**
 * The labels the 'not saved' page shows for the fields of the forms at `path`
 * and below it, and which of those fields are checkboxes. A `*` in `path`
 * stands for any one segment (an id); the longest registered path matching an
 * address is the one used.
 */
export function setFieldLabels(path: string, labels: Record<string, string>, { checkboxes = [] as string[] } = {}) {
  pageFields.set(path, { labels, checkboxes });
}

function fieldsFor(action: string): PageFields {
  const segments = action.split("?")[0].split("/");
  let best: { length: number; fields: PageFields } | null = null;
  for (const [prefix, fields] of pageFields) {
    const wanted = prefix.split("/");
    const matches = wanted.length <= segments.length && wanted.every((s, i) => s === "*" || s === segments[i]);
    if (matches && wanted.length > (best?.length ?? 0)) best = { length: wanted.length, fields };
  }
  return best ? { ...best.fields, labels: { ...LABELS, ...best.fields.labels } } : { labels: LABELS, checkboxes: [] };
}

// Labels of the fields by name, for the other forms.
const LABELS: Record<string, string> = {
  header: "Tytuł",
  text: "Treść",
  title: "Tytuł",
  description: "Opis",
  date: "Data",
  name: "Nazwa",
  people: "Osoby",
  author: "Podpis",
  publishAt: "Data publikacji",
  time: "Godzina",
  endTime: "Godzina końca",
};

interface Recorded {
  fields: [string, string][];
  files: string[];
  /** More was sent than KEPT_MAX_BYTES of text: the rest is not shown. */
  cut: boolean;
  multipart: boolean;
}

/** Watches a request body go by and keeps its text fields and the names of its files. */
function recordBody(req: IncomingMessage) {
  const type = req.headers["content-type"] ?? "";
  const recorded: Recorded = { fields: [], files: [], cut: false, multipart: false };
  let feed: (chunk: Buffer) => void = () => {};
  let finish: () => Promise<void> = async () => {};
  if (/^application\/x-www-form-urlencoded/i.test(type)) {
    const chunks: Buffer[] = [];
    let size = 0;
    feed = (chunk) => {
      if (size + chunk.length > KEPT_MAX_BYTES) recorded.cut = true;
      else chunks.push(chunk);
      size += chunk.length;
    };
    finish = async () => {
      if (recorded.cut) return;
      recorded.fields = [...new URLSearchParams(Buffer.concat(chunks).toString("utf8"))];
    };
  } else if (/^multipart\/form-data/i.test(type)) {
    recorded.multipart = true;
    let parser: busboy.Busboy | null = null;
    const done = new Promise<void>((resolve) => {
      try {
        parser = busboy({
          headers: req.headers,
          limits: { fieldSize: KEPT_MAX_BYTES, fields: 1000, parts: 2000 },
          defParamCharset: "utf8",
        });
      } catch {
        return resolve();
      }
      let size = 0;
      parser.on("field", (name, value, info) => {
        size += name.length + value.length;
        if (info.valueTruncated || size > KEPT_MAX_BYTES) recorded.cut = true;
        else recorded.fields.push([name, value]);
      });
      parser.on("file", (_name, stream, info) => {
        if (info.filename) recorded.files.push(info.filename);
        stream.resume();
      });
      parser.on("close", resolve);
      parser.on("error", () => resolve());
    });
    feed = (chunk) => parser?.write(chunk);
    finish = () => {
      parser?.end();
      // A body cut off mid-way never closes the parser: what came is enough.
      return Promise.race([done, new Promise<void>((r) => setTimeout(r, 100))]);
    };
  }
  const emit = req.emit;
  req.emit = function (this: IncomingMessage, event: string | symbol, ...args: unknown[]) {
    if (event === "data") feed(args[0] as Buffer);
    return emit.call(this, event, ...args);
  } as IncomingMessage["emit"];
  return { recorded, finish };
}

/** The rest of a body the route did not read, through the recorder (at most 30 s). */
function readRest(req: IncomingMessage): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, 30_000);
    function done() {
      clearTimeout(timer);
      resolve();
    }
    req.once("end", done);
    req.once("close", done);
    req.once("error", done);
    // The route's readers (a cancelled stream) go; the recorder sees every byte.
    req.removeAllListeners("data");
    req.on("data", () => {});
    req.resume();
  });
}

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const STYLE =
  "body{font-family:system-ui,sans-serif;max-width:46rem;margin:1rem auto;padding:0 1rem;line-height:1.5}label{display:block;font-weight:600;margin-top:1rem}input,textarea{width:100%;box-sizing:border-box;font:inherit;padding:.4rem}input[type=checkbox]{width:auto}button{margin-top:1rem;font:inherit;padding:.5rem 1rem}";

const page = (title: string, body: string) => fallbackDocument(escape(title), body, STYLE);

/** The answer to a post that met the outage: the fields again, ready to be sent once more. */
export function notSavedPage(action: string, recorded: Recorded): string {
  const { labels, checkboxes } = fieldsFor(action);
  const sent = new Set(recorded.fields.map(([name]) => name));
  // A form that carried something typed gets its unticked checkboxes back too
  // (a delete button's form, all hidden fields, does not).
  const typed = recorded.fields.some(([name]) => !HIDDEN.has(name) && !checkboxes.includes(name));
  const unticked = typed
    ? checkboxes.filter((name) => !sent.has(name)).map((name): [string, string] => [name, ""])
    : [];
  const checkbox = (id: string, name: string, value: string, checked: boolean) =>
    `<label for="${id}" class="checkbox"><input type="checkbox" id="${id}" name="${escape(name)}" value="${escape(value || "1")}"${checked ? " checked" : ""}> ${escape(labels[name] ?? name)}</label>`;
  const inputs = [...recorded.fields, ...unticked]
    .map(([name, value], i) => {
      if (HIDDEN.has(name)) return `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`;
      const id = `pole-${i}`;
      if (checkboxes.includes(name)) return checkbox(id, name, value, i < recorded.fields.length);
      const label = `<label for="${id}">${escape(labels[name] ?? name)}</label>`;
      if (name in SECRETS) return `${label}<input id="${id}" name="${escape(name)}" type="${SECRETS[name]}" required>`;
      return value.length <= 120 && !value.includes("\n")
        ? `${label}<input id="${id}" name="${escape(name)}" value="${escape(value)}">`
        : `${label}<textarea id="${id}" name="${escape(name)}" rows="${Math.min(20, 4 + Math.floor(value.length / 80))}">${escape(value)}</textarea>`;
    })
    .join("");
  const photos = recorded.files.length
    ? `<p class="photos-lost">${PASTOR_OUTAGE.photosLost}</p><ul>${recorded.files.map((f) => `<li>${escape(f)}</li>`).join("")}</ul>`
    : "";
  const cut = recorded.cut ? "<p>Formularz był zbyt długi, by go tu pokazać: wróć do poprzedniej strony.</p>" : "";
  const enctype = recorded.multipart ? ' enctype="multipart/form-data"' : "";
  return page(
    PASTOR_OUTAGE.notSaved,
    `<h1>${PASTOR_OUTAGE.notSaved}</h1><p role="alert">${PASTOR_OUTAGE.notSavedText}</p>${photos}${cut}<form method="post" action="${escape(action)}"${enctype}>${inputs}<button type="submit">${PASTOR_OUTAGE.retry}</button></form>`,
  );
}

/** The answer to a page of the area asked for during the outage; 'Odśwież' asks for the same page again. */
export function areaDownPage(url: string) {
  const again = isPastorPath(url.split("?")[0]) ? url : PANEL_PATH;
  return page(
    PASTOR_OUTAGE.areaDown,
    `<h1>${PASTOR_OUTAGE.areaDown}</h1><p>${PASTOR_OUTAGE.areaDownText}</p><p><a href="${escape(again)}">Odśwież</a> · <a href="/">Strona główna</a></p>`,
  );
}

/** Marks the redirect that Remix's single-fetch client decodes as its own. */
const REDIRECT = Symbol("SingleFetchRedirect");

/**
 * A value encoded as Remix's single fetch answers its data requests
 * (turbo-stream, with the redirect tag of Remix's own encoder).
 */
export async function turboStream(value: Record<string | symbol, unknown>): Promise<string> {
  const stream = encode(value, {
    plugins: [
      (v: unknown) => (v && typeof v === "object" && REDIRECT in v ? ["SingleFetchRedirect", v[REDIRECT]] : undefined),
    ],
  });
  return new Response(stream).text();
}

/** The answer to the router's data request that met the outage (see the module's comment). */
export function scriptAnswer(method: string, url: string): Promise<string> {
  if (WRITES.has(method)) return turboStream({ data: { error: PASTOR_OUTAGE.json } });
  const address = new URL(url, "http://door");
  address.pathname = address.pathname.replace(/\.data$/, "");
  address.searchParams.delete("_routes");
  address.searchParams.delete("index");
  const page = address.pathname + address.search;
  return turboStream({ [REDIRECT]: { redirect: page, status: 302, revalidate: false, reload: true, replace: true } });
}

type Next = () => void;

/**
 * Hands a pastor-area request on to `next`, and replaces its answer when the
 * request met an unreachable database (see the module's comment). Other
 * requests go straight through.
 */
export function pastorDoor(req: IncomingMessage, res: ServerResponse, next: Next) {
  const path = (req.url ?? "/").split("?")[0];
  const store = requestContext.getStore();
  // A router's data request names the page with `.data` added.
  const data = path.endsWith(".data");
  if (!store || !isPastorPath(data ? path.slice(0, -".data".length) : path)) return next();
  const write = WRITES.has(req.method ?? "");
  const body = write ? recordBody(req) : null;

  // Decided at the answer's first byte (the entry has marked the request by
  // then): the route's answer goes out as it is, or is dropped for ours.
  // Node writes a head implicitly from write() and end(), so all three wait.
  const own = { writeHead: res.writeHead, write: res.write, end: res.end };
  // The wrappers stay and pass through: Express's compression wraps these
  // same methods after us, so putting the originals back would unhook it.
  let state: "undecided" | "pass" | "divert" = "undecided";
  const decide = () => {
    if (state === "undecided") state = store.databaseUnavailable ? "divert" : "pass";
    return state === "divert";
  };
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    return decide() ? this : own.writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
  res.write = function (this: ServerResponse, ...args: Parameters<ServerResponse["write"]>) {
    if (!decide()) return own.write.apply(this, args);
    const cb = args.find((x) => typeof x === "function") as (() => void) | undefined;
    cb?.();
    return true;
  } as ServerResponse["write"];
  res.end = function (this: ServerResponse, ...args: Parameters<ServerResponse["end"]>) {
    if (!decide()) return own.end.apply(this, args);
    void answerOutage();
    return this;
  } as ServerResponse["end"];

  function send(text: string) {
    own.writeHead.call(res, 503);
    (own.end as (chunk: string) => ServerResponse).call(res, text);
  }

  let answered = false;
  async function answerOutage() {
    if (answered) return;
    answered = true;
    for (const name of res.getHeaderNames()) {
      if (name !== "x-request-id") res.removeHeader(name);
    }
    if (body) {
      await readRest(req);
      await body.finish();
    }
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Retry-After", "5");
    logger.warn(
      { method: req.method, path, kept: body?.recorded.fields.length ?? 0 },
      "pastor area: database unavailable",
    );
    const accept = String(req.headers.accept ?? "");
    if (data) {
      res.setHeader("Content-Type", "text/x-script");
      send(await scriptAnswer(req.method ?? "GET", req.url ?? path));
      return;
    }
    if (accept.includes("application/json") && !accept.includes("text/html")) {
      res.setHeader("Content-Type", "application/json; charset=utf-8");
      send(JSON.stringify({ error: PASTOR_OUTAGE.json }));
      return;
    }
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    const html = body ? notSavedPage(req.url ?? path, body.recorded) : areaDownPage(req.url ?? path);
    // Past anything that wrapped the response after us (compression).
    send(html);
  }

  next();
}
