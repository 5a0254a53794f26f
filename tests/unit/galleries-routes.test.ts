// The album pages of the pastor area, called as Remix calls them: real
// multipart requests from a signed-in browser, real database, storage and sharp.
import fs from "node:fs/promises";
import type { LoaderFunctionArgs } from "@remix-run/node";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { clock } from "~/services/clock.server";
import { galleries, galleryDrafts } from "~/services/schema";
import { db } from "~/services/db.server";
import { loader as publicAlbumLoader } from "~/routes/galeria.$slug";
import { action as detailAction, loader as detailLoader } from "~/routes/strefapastora.galeria.$slug";
import { loader as listLoader } from "~/routes/strefapastora.galeria._index";
import { action as addAction, loader as addLoader } from "~/routes/strefapastora.galeria.dodaj";
import { action as photosAction, loader as photosLoader } from "~/routes/strefapastora.galeria.dodaj.zdjecia";
import { action as editAction, loader as editLoader } from "~/routes/strefapastora.galeria.edytuj.$slug";
import { storage } from "~/services/storage.server";
import { ORIGIN, PASTOR, addPastor, signIn } from "../auth-helpers";
import { request, resetDatabase, settle } from "../helpers";

let session: string;
let csrf: string;

beforeAll(async () => {
  await resetDatabase();
  await addPastor();
  session = await signIn(PASTOR);
  const res = await settle(() => addLoader({ request: get("/strefapastora/galeria/dodaj"), params: {}, context: {} }));
  csrf = ((await res.json()) as { csrf: string }).csrf;
});

beforeEach(async () => {
  vi.restoreAllMocks();
  const d = await db();
  await d.delete(galleryDrafts);
  await d.delete(galleries);
  await fs.rm(path.join(process.env.DATA_DIR!, "uploads"), { recursive: true, force: true });
});

function get(path: string) {
  return request(path, { headers: { Cookie: session } });
}

/** A form as the browser sends it: the session's token first, then the fields in page order. */
function form(fields: [string, string | File][]) {
  const body = new FormData();
  body.append("csrf", csrf);
  for (const [name, value] of fields) body.append(name, value);
  return body;
}

function post(path: string, body: FormData | URLSearchParams, headers: Record<string, string> = {}) {
  return request(path, { method: "POST", body, headers: { Cookie: session, Origin: ORIGIN, ...headers } });
}

type Route = (args: LoaderFunctionArgs) => unknown;
const call = (fn: Route, req: Request) => settle(() => fn({ request: req, params: {}, context: {} }));

async function jpeg(name: string, colour = "#6699cc") {
  const data = await sharp({ create: { width: 120, height: 80, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
  return new File([data], name, { type: "image/jpeg" });
}

function heic(name: string) {
  const head = Buffer.alloc(32);
  head.writeUInt32BE(24, 0);
  head.write("ftypheic", 4, "latin1");
  head.write("mif1heic", 16, "latin1");
  return new File([Buffer.concat([head, Buffer.alloc(4000, 1)])], name, { type: "image/heic" });
}

const typed = (title: string, description = "Opis", date = "2025-06-01"): [string, string][] => [
  ["title", title],
  ["description", description],
  ["date", date],
];

interface EditorData {
  draftId: string | null;
  values: { title: string; description: string; date: string };
  images: { key: string; name: string; thumb: string; alt: string }[];
  feedback: { report?: string; error?: string; hint?: string; fieldErrors?: Record<string, string> } | null;
  flash: string | null;
}

async function editorData(res: Response): Promise<EditorData> {
  expect(res.status).toBe(200);
  return (await res.json()) as EditorData;
}

/** Follows the redirect back to the editor, as the browser does. */
async function followToEditor(res: Response, loader: Route = addLoader): Promise<EditorData> {
  expect(res.status).toBe(302);
  const location = res.headers.get("Location")!;
  return editorData(await call(loader, get(location)));
}

const names = (data: EditorData) => data.images.map((i) => i.name);

describe("adding an album without JavaScript", () => {
  it("offers today's date in Warsaw, also just after midnight there", async () => {
    vi.spyOn(clock, "now").mockReturnValue(new Date("2025-06-30T22:30:00Z"));
    const data = await editorData(await call(addLoader, get("/strefapastora/galeria/dodaj")));
    expect(data.values).toMatchObject({ title: "", description: "", date: "2025-07-01" });
    expect(data.draftId).toBeNull();
  });

  it("keeps uploads and typed values across round trips, reorders, and saves to the album's page", async () => {
    const first = await call(
      addAction,
      post(
        "/strefapastora/galeria/dodaj",
        form([
          ...typed("Obóz młodzieży"),
          ["zdjecia", await jpeg("IMG_1.jpg")],
          ["zdjecia", await jpeg("IMG_2.jpg")],
          ["intent", "upload"],
        ]),
      ),
    );
    expect(first.headers.get("Location")).toMatch(/^\/strefapastora\/galeria\/dodaj\?szkic=[\w-]+$/);
    let data = await followToEditor(first);
    expect(names(data)).toEqual(["IMG_1.jpg", "IMG_2.jpg"]);
    expect(data.values).toMatchObject({ title: "Obóz młodzieży", description: "Opis", date: "2025-06-01" });
    expect(data.feedback?.report).toBe("2 z 2 zdjęć dodano");
    const url = `/strefapastora/galeria/dodaj?szkic=${data.draftId}`;

    // A second batch with a refused file, the title changed meanwhile.
    data = await followToEditor(
      await call(
        addAction,
        post(
          url,
          form([
            ...typed("Obóz młodzieży 2025"),
            ["zdjecia", await jpeg("IMG_3.jpg")],
            ["zdjecia", heic("IMG_0042.HEIC")],
            ["intent", "upload"],
          ]),
        ),
      ),
    );
    expect(names(data)).toEqual(["IMG_1.jpg", "IMG_2.jpg", "IMG_3.jpg"]);
    expect(data.feedback?.report).toBe("1 z 2 zdjęć dodano; IMG_0042.HEIC: format HEIC nie jest obsługiwany");
    expect(data.feedback?.hint).toMatch(/Najbardziej zgodne/);
    expect(data.values.title).toBe("Obóz młodzieży 2025");

    const key = (name: string) => data.images.find((i) => i.name === name)!.key;
    data = await followToEditor(
      await call(
        addAction,
        post(url, form([...typed("Obóz młodzieży 2025"), ["intent", `cover:${key("IMG_3.jpg")}`]])),
      ),
    );
    expect(names(data)).toEqual(["IMG_3.jpg", "IMG_1.jpg", "IMG_2.jpg"]);
    // The report of an earlier step is not shown again.
    expect(data.feedback).toBeNull();
    data = await followToEditor(
      await call(addAction, post(url, form([...typed("Obóz młodzieży 2025"), ["intent", `down:${key("IMG_1.jpg")}`]]))),
    );
    expect(names(data)).toEqual(["IMG_3.jpg", "IMG_2.jpg", "IMG_1.jpg"]);
    data = await followToEditor(
      await call(
        addAction,
        post(url, form([...typed("Obóz młodzieży 2025"), ["intent", `remove:${key("IMG_2.jpg")}`]])),
      ),
    );
    expect(names(data)).toEqual(["IMG_3.jpg", "IMG_1.jpg"]);
    // Thumbnails are the smallest stored variant.
    expect(data.images[0].thumb).toMatch(/^\/pliki\/galeria\/[0-9a-f]+\/[0-9a-f]{24}-IMG_3-120\.webp$/);

    const saved = await call(addAction, post(url, form([...typed("Obóz młodzieży 2025"), ["intent", "save"]])));
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(`/strefapastora/galeria/${encodeURIComponent("Obóz młodzieży 2025")}`);

    const publicPage = await call(publicAlbumLoader, request(`/galeria/${encodeURIComponent("Obóz młodzieży 2025")}`));
    const album = ((await publicPage.json()) as { gallery: { images: { name: string }[]; description: string } })
      .gallery;
    expect(album.images.map((i) => i.name)).toEqual(["IMG_3.jpg", "IMG_1.jpg"]);

    // The used draft is gone; its address starts over.
    const stale = await call(addLoader, get(url));
    expect(stale.headers.get("Location")).toBe("/strefapastora/galeria/dodaj");
  });

  it("renders the form again with what was typed when nothing is kept, and makes no draft", async () => {
    const res = await call(
      addAction,
      post("/strefapastora/galeria/dodaj", form([...typed("   "), ["zdjecia", heic("a.heic")], ["intent", "save"]])),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as EditorData;
    expect(body.values.title).toBe("   ");
    expect(body.feedback?.report).toBe("0 z 1 zdjęcia dodano; a.heic: format HEIC nie jest obsługiwany");
    expect(body.feedback?.error).toMatch(/nie wszystkie wybrane zdjęcia/);

    const empty = await call(
      addAction,
      post("/strefapastora/galeria/dodaj", form([...typed(" \t "), ["intent", "save"]])),
    );
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as EditorData).feedback?.fieldErrors?.title).toBe("Podaj tytuł galerii.");
    expect(await (await db()).select().from(galleryDrafts)).toEqual([]);
    expect(await (await db()).select().from(galleries)).toEqual([]);
  });

  it("refuses a title that exists, on add", async () => {
    await call(addAction, post("/strefapastora/galeria/dodaj", form([...typed("Piknik"), ["intent", "save"]])));
    const res = await call(
      addAction,
      post("/strefapastora/galeria/dodaj", form([...typed("Piknik"), ["intent", "save"]])),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as EditorData).feedback?.error).toBe("Jest już galeria o podanym tytule!");

    // With photos kept in a draft, the draft shows the refusal.
    const data = await followToEditor(
      await call(
        addAction,
        post(
          "/strefapastora/galeria/dodaj",
          form([...typed(" Piknik "), ["zdjecia", await jpeg("a.jpg")], ["intent", "save"]]),
        ),
      ),
    );
    expect(data.feedback?.error).toBe("Jest już galeria o podanym tytule!");
    expect(names(data)).toEqual(["a.jpg"]);
    expect(await (await db()).select().from(galleries)).toHaveLength(1);
  });

  it("refuses more photos in one post than it can process in time, asking for parts", async () => {
    const fields: [string, string | File][] = typed("Dużo");
    for (let i = 0; i < 11; i++) fields.push(["zdjecia", await jpeg(`IMG_${i}.jpg`)]);
    fields.push(["intent", "upload"]);
    const res = await call(addAction, post("/strefapastora/galeria/dodaj", form(fields)));
    expect(res.status).toBe(413);
    const body = (await res.json()) as EditorData;
    expect(body.feedback?.error).toBe("Za dużo plików naraz (maksymalnie 10). Wyślij je w kilku częściach.");
    expect(body.values.title).toBe("Dużo");
    expect(await storage().list("galeria/")).toEqual([]);
  });

  it("answers an unknown button or a foreign image key with a Polish message and changes nothing", async () => {
    const res = await call(
      addAction,
      post("/strefapastora/galeria/dodaj", form([...typed("X"), ["intent", "up:../../etc/passwd"]])),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as EditorData).feedback?.error).toBe("Nieznane polecenie formularza.");
    const other = await call(
      addAction,
      post("/strefapastora/galeria/dodaj", form([...typed("X"), ["intent", "cover:galeria/obce.jpg"]])),
    );
    expect(other.status).toBe(400);
    expect(((await other.json()) as EditorData).feedback?.error).toBe(
      "Nie ma takiego zdjęcia w galerii. Odśwież stronę i spróbuj ponownie.",
    );
    expect(await (await db()).select().from(galleryDrafts)).toEqual([]);
  });

  it("keeps a NUL byte out of the database", async () => {
    const data = await followToEditor(
      await call(
        addAction,
        post(
          "/strefapastora/galeria/dodaj",
          form([...typed("Ti\u0000tuł", "O\u0000pis"), ["zdjecia", await jpeg("a\u0000b.jpg")]]),
        ),
      ),
    );
    expect(data.values.title).toBe("Tituł");
    expect(names(data)).toEqual(["ab.jpg"]);
  });
});

describe("the script's endpoint", () => {
  it("takes one photo per request and answers each with its outcome", async () => {
    const send = (fields: [string, string | File][]) =>
      call(photosAction, post("/strefapastora/galeria/dodaj/zdjecia", form(fields), { "X-CSRF-Token": csrf }));
    const one = await send([...typed("Z JS"), ["intent", "upload"], ["zdjecia", await jpeg("a.jpg")]]);
    expect(one.status).toBe(200);
    const first = (await one.json()) as {
      draftId: string;
      results: { name: string; ok: boolean; image?: { key: string; thumb: string } }[];
    };
    expect(first.results).toMatchObject([{ name: "a.jpg", ok: true }]);

    const refused = await send([
      ["szkic", first.draftId],
      ...typed("Z JS"),
      ["intent", "upload"],
      ["zdjecia", heic("IMG_0042.HEIC")],
    ]);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({
      draftId: first.draftId,
      results: [{ name: "IMG_0042.HEIC", ok: false, reason: "format HEIC nie jest obsługiwany" }],
    });

    const two = (await (
      await send([["szkic", first.draftId], ...typed("Z JS"), ["intent", "upload"], ["zdjecia", await jpeg("b.jpg")]])
    ).json()) as typeof first;
    const keys = [two.results[0].image!.key, first.results[0].image!.key];
    const body = new URLSearchParams([
      ["csrf", csrf],
      ["szkic", first.draftId],
      ["intent", "reorder"],
      ...keys.map((k): [string, string] => ["order", k]),
    ]);
    const reordered = await call(photosAction, post("/strefapastora/galeria/dodaj/zdjecia", body));
    expect(await reordered.json()).toEqual({ draftId: first.draftId });
    const data = await editorData(await call(addLoader, get(`/strefapastora/galeria/dodaj?szkic=${first.draftId}`)));
    expect(names(data)).toEqual(["b.jpg", "a.jpg"]);
    expect(data.values.title).toBe("Z JS");

    // Nothing to show on a GET; a draft of someone else's is not found.
    expect((await call(photosLoader, get("/strefapastora/galeria/dodaj/zdjecia"))).headers.get("Location")).toBe(
      "/strefapastora/galeria/dodaj",
    );
    const foreign = await send([
      ["szkic", "nie-ma-takiego"],
      ["intent", "upload"],
      ["zdjecia", await jpeg("c.jpg")],
    ]);
    expect(foreign.status).toBe(409);
    expect(await foreign.json()).toEqual({
      error: "Ten szkic galerii wygasł lub został już zapisany. Zacznij od nowa.",
    });
  });
});

describe("editing, renaming and deleting", () => {
  async function createAlbum(title: string, photos: string[]) {
    const fields: [string, string | File][] = typed(title);
    for (const p of photos) fields.push(["zdjecia", await jpeg(p)]);
    fields.push(["intent", "save"]);
    const res = await call(addAction, post("/strefapastora/galeria/dodaj", form(fields)));
    expect(res.headers.get("Location")).toBe(`/strefapastora/galeria/${encodeURIComponent(title)}`);
  }

  const SPECIAL = "Wieczór / uwielbienia? #2 & 100% + łąka 🎉";

  it("renames to a title with / ? # & % + and Polish letters, moving every address", async () => {
    await createAlbum("Wieczór", ["a.jpg", "b.jpg"]);
    const editUrl = `/strefapastora/galeria/edytuj/${encodeURIComponent("Wieczór")}`;
    const start = await editorData(await call(editLoader, get(editUrl)));
    expect(start.values.title).toBe("Wieczór");
    expect(names(start)).toEqual(["a.jpg", "b.jpg"]);

    // The first change starts a draft from the album.
    const data = await followToEditor(
      await call(editAction, post(editUrl, form([...typed(SPECIAL), ["intent", `down:${start.images[0].key}`]]))),
      editLoader,
    );
    expect(names(data)).toEqual(["b.jpg", "a.jpg"]);
    expect(data.values.title).toBe(SPECIAL);
    // Not saved yet: the album still has its old order and title.
    expect((await call(publicAlbumLoader, request(`/galeria/${encodeURIComponent("Wieczór")}`))).status).toBe(200);

    const saved = await call(
      editAction,
      post(`${editUrl}?szkic=${data.draftId}`, form([...typed(SPECIAL), ["intent", "save"]])),
    );
    const detailUrl = `/strefapastora/galeria/${encodeURIComponent(SPECIAL)}`;
    expect(saved.headers.get("Location")).toBe(detailUrl);

    const detail = (await (await call(detailLoader, get(detailUrl))).json()) as {
      gallery: { title: string; images: { name: string }[] };
      editPath: string;
      flash: string;
    };
    expect(detail.gallery.title).toBe(SPECIAL);
    expect(detail.gallery.images.map((i) => i.name)).toEqual(["b.jpg", "a.jpg"]);
    expect(detail.editPath).toBe(`/strefapastora/galeria/edytuj/${encodeURIComponent(SPECIAL)}`);
    expect((await call(publicAlbumLoader, request(`/galeria/${encodeURIComponent(SPECIAL)}`))).status).toBe(200);
    expect(
      (await call(publicAlbumLoader, request(`/galeria/${encodeURIComponent("Wieczór")}`))).headers.get("Location"),
    ).toBe("/galeria");
    expect((await call(editLoader, get(detail.editPath))).status).toBe(200);

    const list = (await (await call(listLoader, get("/strefapastora/galeria"))).json()) as {
      galleries: { title: string; path: string }[];
    };
    expect(list.galleries).toMatchObject([{ title: SPECIAL, date: "2025-06-01", path: detailUrl }]);
  });

  it("refuses to rename onto another album's title and loses neither", async () => {
    await createAlbum("Koncert", ["k.jpg"]);
    await createAlbum("Piknik", ["p.jpg"]);
    const editUrl = `/strefapastora/galeria/edytuj/${encodeURIComponent("Piknik")}`;
    const res = await call(editAction, post(editUrl, form([...typed("Koncert"), ["intent", "save"]])));
    expect(res.status).toBe(400);
    expect(((await res.json()) as EditorData).feedback?.error).toBe("Jest już galeria o podanym tytule!");
    for (const [title, photo] of [
      ["Koncert", "k.jpg"],
      ["Piknik", "p.jpg"],
    ]) {
      const page = (await (await call(detailLoader, get(`/strefapastora/galeria/${title}`))).json()) as {
        gallery: { images: { name: string }[] };
      };
      expect(page.gallery.images.map((i) => i.name)).toEqual([photo]);
    }
  });

  it("sends an unknown album to the list", async () => {
    for (const [fn, url] of [
      [detailLoader, "/strefapastora/galeria/Nie%20ma"],
      [detailLoader, "/strefapastora/galeria/%E0%A4%A"],
      [editLoader, "/strefapastora/galeria/edytuj/Nie%20ma"],
    ] as const) {
      const res = await call(fn, get(url));
      expect(res.status, url).toBe(302);
      expect(res.headers.get("Location")).toBe("/strefapastora/galeria");
    }
    const res = await call(
      editAction,
      post("/strefapastora/galeria/edytuj/Nie%20ma", form([...typed("X"), ["intent", "save"]])),
    );
    expect(res.headers.get("Location")).toBe("/strefapastora/galeria");
  });

  it("asks before deleting without JavaScript, then moves the album to the bin, its files kept", async () => {
    await createAlbum(SPECIAL, ["a.jpg"]);
    const url = `/strefapastora/galeria/${encodeURIComponent(SPECIAL)}`;
    const files = await storage().list("galeria/");
    expect(files.length).toBeGreaterThan(0);

    const ask = await call(detailAction, post(url, new URLSearchParams({ csrf, intent: "delete", confirmed: "" })));
    expect(ask.status).toBe(200);
    expect(await ask.json()).toEqual({ confirm: true, error: null });
    expect((await call(detailLoader, get(url))).status).toBe(200);

    const done = await call(detailAction, post(url, new URLSearchParams({ csrf, intent: "delete", confirmed: "1" })));
    expect(done.headers.get("Location")).toBe("/strefapastora/galeria");
    const list = (await (
      await call(
        listLoader,
        new Request(new URL("/strefapastora/galeria", ORIGIN), {
          headers: { Cookie: `${session}; ${done.headers.getSetCookie()[0].split(";")[0]}` },
        }),
      )
    ).json()) as { flash: string; galleries: unknown[] };
    expect(list.flash).toBe(`Przeniesiono galerię „${SPECIAL}” do kosza.`);
    expect(list.galleries).toEqual([]);
    expect(await storage().list("galeria/")).toEqual(files);
    expect((await call(detailLoader, get(url))).headers.get("Location")).toBe("/strefapastora/galeria");
  });
});

describe("photo descriptions for screen readers", () => {
  async function createAlbum(title: string, photos: string[]) {
    const fields: [string, string | File][] = typed(title);
    for (const p of photos) fields.push(["zdjecia", await jpeg(p)]);
    fields.push(["intent", "save"]);
    await call(addAction, post("/strefapastora/galeria/dodaj", form(fields)));
  }

  const publicImages = async (title: string) =>
    (
      (await (await call(publicAlbumLoader, request(`/galeria/${encodeURIComponent(title)}`))).json()) as {
        gallery: { images: { name: string; alt: string }[] };
      }
    ).gallery.images;

  it("saves a description typed for one photo; the others keep the default", async () => {
    await createAlbum("Chrzest", ["a.jpg", "b.jpg"]);
    const editUrl = `/strefapastora/galeria/edytuj/${encodeURIComponent("Chrzest")}`;
    const start = await editorData(await call(editLoader, get(editUrl)));
    expect(start.images.map((i) => i.alt)).toEqual(["", ""]);
    const [a, b] = start.images;

    const saved = await call(
      editAction,
      post(
        editUrl,
        form([
          ...typed("Chrzest"),
          [`alt:${a.key}`, "  Pastor \n zanurza  kandydata w rzece "],
          [`alt:${b.key}`, ""],
          ["intent", "save"],
        ]),
      ),
    );
    expect(saved.headers.get("Location")).toBe(`/strefapastora/galeria/${encodeURIComponent("Chrzest")}`);
    expect(await publicImages("Chrzest")).toMatchObject([
      { name: "a.jpg", alt: "Pastor zanurza kandydata w rzece" },
      { name: "b.jpg", alt: "" },
    ]);
    // The editor shows it next time.
    const again = await editorData(await call(editLoader, get(editUrl)));
    expect(again.images.map((i) => i.alt)).toEqual(["Pastor zanurza kandydata w rzece", ""]);
  });

  it("keeps typed descriptions when the save is refused, and moves them with their photo", async () => {
    await createAlbum("Piknik", ["a.jpg", "b.jpg"]);
    const editUrl = `/strefapastora/galeria/edytuj/${encodeURIComponent("Piknik")}`;
    const [a, b] = (await editorData(await call(editLoader, get(editUrl)))).images;

    // An empty title is refused; the description typed with it is not lost.
    let data = await followToEditor(
      await call(
        editAction,
        post(editUrl, form([...typed(""), [`alt:${b.key}`, "Dzieci przy ognisku"], ["intent", "save"]])),
      ),
      editLoader,
    );
    expect(data.feedback?.fieldErrors?.title).toBeTruthy();
    expect(data.images.map((i) => i.alt)).toEqual(["", "Dzieci przy ognisku"]);
    const url = `${editUrl}?szkic=${data.draftId}`;

    data = await followToEditor(
      await call(editAction, post(url, form([...typed("Piknik"), ["intent", `cover:${b.key}`]]))),
      editLoader,
    );
    expect(data.images.map((i) => [i.name, i.alt])).toEqual([
      ["b.jpg", "Dzieci przy ognisku"],
      ["a.jpg", ""],
    ]);
    await call(
      editAction,
      post(url, form([...typed("Piknik"), [`alt:${a.key}`, "x".repeat(400)], ["intent", "save"]])),
    );
    const images = await publicImages("Piknik");
    expect(images[0].alt).toBe("Dzieci przy ognisku");
    // Longer descriptions are cut where the field stops typing.
    expect(images[1].alt).toBe("x".repeat(250));
  });

  it("keeps descriptions sent with the script's reorder", async () => {
    await createAlbum("Koncert", ["a.jpg", "b.jpg"]);
    const [a, b] = (
      await editorData(await call(editLoader, get(`/strefapastora/galeria/edytuj/${encodeURIComponent("Koncert")}`)))
    ).images;
    const body = new URLSearchParams([
      ["csrf", csrf],
      ["galeria", "Koncert"],
      ...typed("Koncert"),
      [`alt:${a.key}`, "Zespół na scenie"],
      ["intent", "reorder"],
      ["order", b.key],
      ["order", a.key],
    ]);
    const res = await call(
      photosAction,
      post("/strefapastora/galeria/dodaj/zdjecia", body, { Accept: "application/json" }),
    );
    expect(res.status).toBe(200);
    const { draftId } = (await res.json()) as { draftId: string };
    const data = await editorData(
      await call(editLoader, get(`/strefapastora/galeria/edytuj/${encodeURIComponent("Koncert")}?szkic=${draftId}`)),
    );
    expect(data.images.map((i) => [i.name, i.alt])).toEqual([
      ["b.jpg", ""],
      ["a.jpg", "Zespół na scenie"],
    ]);
  });
});
