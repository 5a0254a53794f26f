// Import from the old Firebase site, end to end: a generated Firestore export
// whose images a local HTTP server serves (one answering 404, one on a closed
// port, one that is not an image, one that appears later), into the test's
// real database and disk storage; then the pages that show the imported data.
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { asc, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles, galleries, galleryImages, historyPhotos } from "~/services/schema";
import { db, rowsOf } from "~/services/db.server";
import { seedChurchContent } from "~/features/church/about.server";
import { seedSampleEvents } from "~/features/events/samples.server";
import { ImportFileError, parseFirebaseExport, readFirebaseExport } from "../../scripts/firebase-import/export-file";
import { type ImportSummary, importFirebase, summaryLines } from "../../scripts/firebase-import/import";
import { isPrivateAddress } from "../../scripts/firebase-import/download";
import { IMAGE_MESSAGES, deleteImage } from "~/services/images.server";
import { EXTERNAL_IMAGE_SIZE, variantKey } from "~/lib/image-variants";
import { deleteGallery } from "~/features/galleries/galleries.server";
import { purgeItem } from "~/features/bin/bin.server";
import { action as editAction, loader as editLoader } from "~/routes/strefapastora.galeria.edytuj.$slug";
import { storage } from "~/services/storage.server";
import { ORIGIN, PASTOR, addPastor, signIn } from "../auth-helpers";
import { type RunningServer, freePort, startBuiltServer } from "../faults/server";
import { request, settle } from "../helpers";

const run = promisify(execFile);

let images: http.Server;
let base = "";
let closedBase = "";
let laterAvailable = false;
let tmp = "";
const served: Record<string, { type: string; body: Buffer }> = {};

const picture = (width: number, height: number, hue: number, format: "jpeg" | "png") => {
  const img = sharp({ create: { width, height, channels: 3, background: { r: hue, g: 255 - hue, b: 120 } } });
  return (format === "jpeg" ? img.jpeg() : img.png()).toBuffer();
};

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-import-"));
  served["/a.jpg"] = { type: "image/jpeg", body: await picture(800, 600, 10, "jpeg") };
  served["/b.png"] = { type: "image/png", body: await picture(300, 200, 60, "png") };
  served["/c1.jpg"] = { type: "image/jpeg", body: await picture(1000, 700, 110, "jpeg") };
  served["/c3.jpg"] = { type: "image/jpeg", body: await picture(640, 480, 160, "jpeg") };
  served["/later.jpg"] = { type: "image/jpeg", body: await picture(500, 500, 200, "jpeg") };
  served["/text.jpg"] = { type: "text/plain", body: Buffer.from("to nie jest zdjęcie") };
  images = http.createServer((req, res) => {
    // `/redirect/<url>` answers 302 to that URL.
    if (req.url?.startsWith("/redirect/")) {
      res.writeHead(302, { Location: decodeURIComponent(req.url.slice("/redirect/".length)) }).end();
      return;
    }
    const file = served[req.url ?? ""];
    if (!file || (req.url === "/later.jpg" && !laterAvailable)) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "Content-Type": file.type, "Content-Length": file.body.length }).end(file.body);
  });
  await new Promise<void>((resolve) => images.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  // Nothing listens there: the connection is refused.
  closedBase = `http://127.0.0.1:${await freePort()}`;
});

afterAll(async () => {
  await new Promise((resolve) => images.close(resolve));
  await fs.rm(tmp, { recursive: true, force: true });
});

const TRIP = "Wycieczka w góry – Zakopane";
const CONCERT = "Koncert uwielbienia 2019";

/** The `__collections__` shape of firestore-export-import / node-firestore-import-export. */
function firestoreExport() {
  return {
    __collections__: {
      aktualnosci: {
        "1600000000000": {
          header: "Spotkanie modlitewne",
          text: "Zapraszamy na wieczór modlitwy.",
          url: `${base}/a.jpg`,
          date: "2020-09-13",
          __collections__: {},
        },
        "1500000000000": {
          header: "Chrzest wodny",
          text: "Relacja z chrztu.",
          url: `${base}/b.png`,
          date: "14 lipca 2017, piątek",
          __collections__: {},
        },
        "1650000000000": {
          header: "Zaginione zdjęcie",
          text: "Zdjęcie tego wpisu zniknęło.",
          url: `${base}/missing.jpg`,
          date: "2022-04-15",
          __collections__: {},
        },
        "1660000000000": {
          header: "Serwer wyłączony",
          text: "Adres zdjęcia nie odpowiada.",
          url: `${closedBase}/x.jpg`,
          date: { __datatype__: "timestamp", value: { _seconds: 1660000000, _nanoseconds: 0 } },
          __collections__: {},
        },
      },
      galleries: {
        [TRIP]: {
          title: TRIP,
          description: "Wspólny wyjazd młodzieży.",
          images: [
            { name: "pierwsze.jpg", url: `${base}/c1.jpg` },
            { name: "zgubione.jpg", url: `${base}/missing-in-album.jpg` },
            { name: "trzecie.jpg", url: `${base}/c3.jpg` },
          ],
          date: "2019-07-20",
          __collections__: {},
        },
        [CONCERT]: {
          title: CONCERT,
          description: "",
          images: [
            { name: "scena.jpg", url: `${base}/later.jpg` },
            { name: "chór.png", url: `${base}/b.png` },
          ],
          date: { _seconds: 1557000000, _nanoseconds: 0 },
          __collections__: {},
        },
      },
      "history-gallery": {
        h1: { url: `${base}/a.jpg`, name: "Budowa kaplicy", __collections__: {} },
        h2: { url: `${base}/text.jpg`, name: "Stary zbór", __collections__: {} },
      },
    },
  };
}

async function writeJson(name: string, value: unknown) {
  const file = path.join(tmp, name);
  await fs.writeFile(file, JSON.stringify(value));
  return file;
}

const counts = (s: ImportSummary) => s.collections;

async function rowCounts() {
  const d = await db();
  return {
    articles: (await d.select({ id: articles.id }).from(articles)).length,
    galleries: (await d.select({ id: galleries.id }).from(galleries)).length,
    galleryImages: (await d.select({ id: galleryImages.id }).from(galleryImages)).length,
    history: (await d.select({ id: historyPhotos.id }).from(historyPhotos)).length,
  };
}

async function galleryRows(title: string) {
  const d = await db();
  const [g] = await d.select({ id: galleries.id }).from(galleries).where(eq(galleries.title, title));
  return d
    .select({
      name: galleryImages.name,
      key: galleryImages.imageKey,
      width: galleryImages.width,
      height: galleryImages.height,
    })
    .from(galleryImages)
    .where(eq(galleryImages.galleryId, g.id))
    .orderBy(asc(galleryImages.position));
}

describe("import from a Firestore export", () => {
  let first: ImportSummary;

  it("imports every record, downloads what it can and keeps the rest at its original URL", async () => {
    // A site already in use: its facts, ministries, testimonies and events are the pastor's, and stay as they are.
    await seedChurchContent(await db());
    await seedSampleEvents(await db());
    await (await db()).execute(sql`update church_facts set data = jsonb_set(data, '{city}', '"Niepołomice"')`);
    const churchRows = async () =>
      Promise.all(
        ["church_facts", "ministries", "testimonies", "events"].map(async (table) =>
          rowsOf(await db(), sql`select to_jsonb(t) as row from ${sql.identifier(table)} t order by 1`),
        ),
      );
    const church = await churchRows();
    expect(church.map((rows) => rows.length)).toEqual([1, 9, 5, 3]);

    const file = await writeJson("eksport.json", firestoreExport());
    first = await importFirebase(await readFirebaseExport(file), { timeoutMs: 5000, localOrigins: [base, closedBase] });
    expect(await churchRows()).toEqual(church);

    expect(counts(first)).toEqual({
      aktualnosci: { documents: 4, added: 4, present: 0, downloaded: 2, unreachable: 2 },
      galleries: { documents: 2, added: 2, present: 0, downloaded: 3, unreachable: 2 },
      "history-gallery": { documents: 2, added: 2, present: 0, downloaded: 1, unreachable: 1 },
    });
    expect(first.failures).toEqual([
      { collection: "aktualnosci", docId: "1650000000000", url: `${base}/missing.jpg`, reason: "HTTP 404" },
      {
        collection: "aktualnosci",
        docId: "1660000000000",
        url: `${closedBase}/x.jpg`,
        reason: "brak połączenia (ECONNREFUSED)",
      },
      { collection: "galleries", docId: CONCERT, url: `${base}/later.jpg`, reason: "HTTP 404" },
      { collection: "galleries", docId: TRIP, url: `${base}/missing-in-album.jpg`, reason: "HTTP 404" },
      { collection: "history-gallery", docId: "h2", url: `${base}/text.jpg`, reason: IMAGE_MESSAGES.notImage },
    ]);

    const d = await db();
    const rows = await d.select().from(articles).orderBy(asc(articles.id));
    expect(rows.map((r) => [r.id, r.header, r.date])).toEqual([
      ["1500000000000", "Chrzest wodny", "14 lipca 2017, piątek"],
      ["1600000000000", "Spotkanie modlitewne", "2020-09-13"],
      ["1650000000000", "Zaginione zdjęcie", "2022-04-15"],
      // A Firestore timestamp becomes the day in Warsaw.
      ["1660000000000", "Serwer wyłączony", "2022-08-09"],
    ]);
    // The id is the creation time on the old site.
    expect(rows[1].createdAt.getTime()).toBe(1600000000000);
    // Downloaded: stored under a key derived from the id, in the article folder, with its variants.
    expect(rows[1].imageKey).toMatch(/^aktualnosci\/firebase-1600000000000-[0-9a-f]{10}\.jpg$/);
    expect([rows[1].imageWidth, rows[1].imageHeight]).toEqual([800, 600]);
    expect([rows[0].imageWidth, rows[0].imageHeight]).toEqual([300, 200]);
    const store = storage();
    for (const key of [rows[1].imageKey!, variantKey(rows[1].imageKey!, 480), variantKey(rows[1].imageKey!, 800)]) {
      expect(await store.exists(key), key).toBe(true);
    }
    // Not downloaded: the original URL, with a stand-in size.
    expect(rows[2]).toMatchObject({
      imageKey: `${base}/missing.jpg`,
      imageWidth: EXTERNAL_IMAGE_SIZE.width,
      imageHeight: EXTERNAL_IMAGE_SIZE.height,
    });
    expect(rows[3].imageKey).toBe(`${closedBase}/x.jpg`);

    const trip = await galleryRows(TRIP);
    expect(trip.map((r) => r.name)).toEqual(["pierwsze.jpg", "zgubione.jpg", "trzecie.jpg"]);
    expect(trip[0].key).toMatch(
      /^galeria\/firebase-Wycieczka-w-gory-Zakopane-[0-9a-f]{10}\/pierwsze-jpg-[0-9a-f]{10}\.jpg$/,
    );
    expect([trip[0].width, trip[0].height]).toEqual([1000, 700]);
    expect(trip[1]).toMatchObject({ key: `${base}/missing-in-album.jpg`, ...EXTERNAL_IMAGE_SIZE });
    expect([trip[2].width, trip[2].height]).toEqual([640, 480]);
    expect(await store.exists(trip[2].key)).toBe(true);
    const [concert] = await d.select().from(galleries).where(eq(galleries.title, CONCERT));
    expect(concert.date).toBe("2019-05-04");
    expect((await galleryRows(CONCERT)).map((r) => r.key)).toEqual([
      `${base}/later.jpg`,
      expect.stringMatching(/^galeria\//),
    ]);

    const history = await d.select().from(historyPhotos).orderBy(asc(historyPhotos.position));
    expect(history.map((h) => [h.name, h.position])).toEqual([
      ["Budowa kaplicy", 0],
      ["Stary zbór", 1],
    ]);
    expect(history[0].imageKey).toMatch(/^historia\/firebase-h1-[0-9a-f]{10}\.jpg$/);
    expect(history[1].imageKey).toBe(`${base}/text.jpg`);
  });

  it("adds nothing on a second run and says so", async () => {
    const before = await rowCounts();
    const file = await writeJson("eksport.json", firestoreExport());
    const again = await importFirebase(await readFirebaseExport(file), {
      timeoutMs: 5000,
      localOrigins: [base, closedBase],
    });
    expect(await rowCounts()).toEqual(before);
    expect(counts(again)).toEqual({
      aktualnosci: { documents: 4, added: 0, present: 4, downloaded: 0, unreachable: 2 },
      galleries: { documents: 2, added: 0, present: 2, downloaded: 0, unreachable: 2 },
      "history-gallery": { documents: 2, added: 0, present: 2, downloaded: 0, unreachable: 1 },
    });
    const lines = summaryLines(again);
    expect(lines).toContain("aktualnosci: w pliku 4, dodano 0, już były 4, pobrane zdjęcia 0, niedostępne zdjęcia 2");
    expect(lines).toContain("Nic nie dodano: wszystko z pliku już jest na stronie.");
    expect(lines).toContain(
      `  aktualnosci/1650000000000: ${base}/missing.jpg (HTTP 404) – adres spoza https://firebasestorage.googleapis.com: strona go nie wyświetli`,
    );
  });

  it("replaces a kept URL with the stored photo once the download works", async () => {
    laterAvailable = true;
    const before = await rowCounts();
    const file = await writeJson("eksport.json", firestoreExport());
    const again = await importFirebase(await readFirebaseExport(file), {
      timeoutMs: 5000,
      localOrigins: [base, closedBase],
    });
    expect(await rowCounts()).toEqual(before);
    expect(again.collections.galleries).toEqual({ documents: 2, added: 0, present: 2, downloaded: 1, unreachable: 1 });
    const concert = await galleryRows(CONCERT);
    expect(concert[0]).toMatchObject({ name: "scena.jpg", width: 500, height: 500 });
    expect(concert[0].key).toMatch(
      /^galeria\/firebase-Koncert-uwielbienia-2019-[0-9a-f]{10}\/scena-jpg-[0-9a-f]{10}\.jpg$/,
    );
    expect(await storage().exists(concert[0].key)).toBe(true);
    expect(again.failures.map((f) => f.url)).not.toContain(`${base}/later.jpg`);
  });
});

describe("pages showing imported data (built server)", () => {
  let server: RunningServer;

  beforeAll(async () => {
    // Same database and uploads folder as the import above.
    server = await startBuiltServer({ DATABASE_URL: process.env.DATABASE_URL!, DATA_DIR: process.env.DATA_DIR! });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("renders an article with a downloaded photo and one whose photo stayed at its URL", async () => {
    const ok = await fetch(`${server.base}/aktualnosci/1600000000000`);
    expect(ok.status).toBe(200);
    const html = await ok.text();
    expect(html).toContain("Spotkanie modlitewne");
    const [, src] = /<img[^>]*src="(\/pliki\/aktualnosci\/firebase-1600000000000-[^"]+)"/.exec(html) ?? [];
    expect(src).toBeDefined();
    expect(html).toMatch(/<img[^>]*srcset="[^"]*-480\.webp 480w/i);
    expect((await fetch(`${server.base}${src}`)).headers.get("content-type")).toBe("image/webp");

    const kept = await fetch(`${server.base}/aktualnosci/1650000000000`);
    expect(kept.status).toBe(200);
    const keptHtml = await kept.text();
    const img = /<img[^>]*src="[^"]*missing\.jpg"[^>]*>/.exec(keptHtml)?.[0];
    expect(img).toContain(`src="${base}/missing.jpg"`);
    expect(img).toContain(`width="${EXTERNAL_IMAGE_SIZE.width}"`);
    expect(img).not.toMatch(/srcset|sizes/i);
    // The old site's file host is allowed as an image source, nothing wider.
    expect(kept.headers.get("content-security-policy")).toMatch(
      /img-src 'self' data: https:\/\/firebasestorage\.googleapis\.com;/,
    );
  });

  it("renders an album under its old address with its photos in order, an external one included", async () => {
    const res = await fetch(`${server.base}/galeria/${encodeURIComponent(TRIP)}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Wspólny wyjazd młodzieży.");
    const photos = [...html.matchAll(/<img[^>]*alt="Zdjęcie \d+ z galerii[^"]*"[^>]*>/g)].map((m) => m[0]);
    expect(photos).toHaveLength(3);
    expect(photos[0]).toMatch(/src="\/pliki\/galeria\/firebase-Wycieczka-w-gory-Zakopane-[0-9a-f]+\/pierwsze-jpg-/);
    expect(photos[0]).toMatch(/srcset=/i);
    expect(photos[1]).toContain(`src="${base}/missing-in-album.jpg"`);
    expect(photos[1]).not.toMatch(/srcset|sizes/i);
    expect(photos[2]).toMatch(/src="\/pliki\/galeria\/[^"]*\/trzecie-jpg-/);
    // The full-size link of the external photo is its URL.
    expect(html).toContain(`href="${base}/missing-in-album.jpg"`);
  });

  it("shows an album cover and history photo kept at their URLs", async () => {
    const d = await db();
    const [g] = await d
      .insert(galleries)
      .values({ title: "Stary album", date: "2018-01-01" })
      .returning({ id: galleries.id });
    await d.insert(galleryImages).values({
      galleryId: g.id,
      position: 0,
      name: "okładka.jpg",
      imageKey: `${base}/missing-cover.jpg`,
      ...EXTERNAL_IMAGE_SIZE,
    });
    const list = await (await fetch(`${server.base}/galeria`)).text();
    expect(list).toContain(`src="${base}/missing-cover.jpg"`);
    const about = await fetch(`${server.base}/onas`);
    expect(about.status).toBe(200);
    expect(await about.text()).toContain(`src="${base}/text.jpg"`);
  });
});

describe("the export file", () => {
  it("accepts the plain shape and typed timestamps without the __datatype__ wrapper", () => {
    const data = parseFirebaseExport({
      aktualnosci: { "1700000000000": { header: "N", text: "T", url: "", date: { seconds: 1700000000 } } },
      galleries: { "Bez zdjęć": { date: "2021-01-01" } },
    });
    expect(data.articles).toEqual([{ id: "1700000000000", header: "N", text: "T", date: "2023-11-14", url: null }]);
    expect(data.galleries).toEqual([
      { docId: "Bez zdjęć", title: "Bez zdjęć", description: "", date: "2021-01-01", images: [] },
    ]);
    expect(data.history).toEqual([]);
  });

  it("names the document and the field that are wrong", () => {
    const bad = (json: unknown) => {
      try {
        parseFirebaseExport(json);
      } catch (error) {
        expect(error).toBeInstanceOf(ImportFileError);
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    expect(bad({ aktualnosci: { "1600000000000": { text: "T", date: "2020-01-01" } } })).toBe(
      "Niepoprawny plik eksportu: aktualnosci/1600000000000, pole „header”: brak pola. Nic nie zaimportowano.",
    );
    expect(
      bad({
        __collections__: {
          galleries: { G: { date: "2020-01-01", images: [{ name: "a", url: "gs://bucket/a.jpg" }] } },
        },
      }),
    ).toBe(
      "Niepoprawny plik eksportu: galleries/G, pole „images.0.url”: oczekiwano adresu http(s) zdjęcia. Nic nie zaimportowano.",
    );
    expect(
      bad({ "history-gallery": { h: { url: "https://x.test/a.jpg", name: 5 } }, galleries: { G: { date: 7 } } }),
    ).toMatch(/^Niepoprawny plik eksportu: galleries\/G, pole „date”: oczekiwano daty .*\(błędów w pliku: 2\)/);
    expect(bad({ users: {} })).toBe("Plik nie zawiera żadnej z kolekcji aktualnosci, galleries, history-gallery.");
    expect(bad({ aktualnosci: { "../x": { header: "H", text: "T", date: "2020-01-01" } } })).toContain(
      "aktualnosci/../x",
    );
  });
});

describe("npm run import:firebase", () => {
  const cli = (args: string[], dataDir: string) =>
    run(process.execPath, ["--import", "tsx", "scripts/zbor.ts", "import:firebase", ...args], {
      env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL!, DATA_DIR: dataDir, PORT: "1", INIT_CWD: tmp },
      timeout: 60_000,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  it("imports a file in the plain shape and prints the summary", async () => {
    await writeJson("prosty.json", {
      aktualnosci: {
        "1710000000000": { header: "Z wiersza poleceń", text: "Treść", url: `${base}/c3.jpg`, date: "2024-03-09" },
      },
      galleries: {},
      "history-gallery": { h9: { url: `${base}/missing-history.jpg`, name: "Brak" } },
    });
    const dataDir = path.join(tmp, "cli-data");
    const result = await cli([`--local-source=${base}`, "prosty.json"], dataDir);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "aktualnosci: w pliku 1, dodano 1, już były 0, pobrane zdjęcia 1, niedostępne zdjęcia 0",
    );
    expect(result.stdout).toContain(
      "galleries: w pliku 0, dodano 0, już były 0, pobrane zdjęcia 0, niedostępne zdjęcia 0",
    );
    expect(result.stdout).toContain(
      "history-gallery: w pliku 1, dodano 1, już były 0, pobrane zdjęcia 0, niedostępne zdjęcia 1",
    );
    expect(result.stdout).toContain(`  history-gallery/h9: ${base}/missing-history.jpg (HTTP 404)`);
    const [row] = await (await db()).select().from(articles).where(eq(articles.id, "1710000000000"));
    expect(row.header).toBe("Z wiersza poleceń");
    // Files went to the storage of the DATA_DIR the command was given.
    await expect(fs.stat(path.join(dataDir, "uploads", ...row.imageKey!.split("/")))).resolves.toBeTruthy();
  });

  it("refuses an invalid file with one message and a non-zero exit code, importing nothing", async () => {
    const before = await rowCounts();
    await writeJson("zly.json", {
      aktualnosci: {
        "1720000000000": { header: "Dobry", text: "T", date: "2024-01-01" },
        "1720000000001": { header: "Zły", text: ["nie tekst"], date: "2024-01-01" },
      },
    });
    const result = await cli(["zly.json"], path.join(tmp, "cli-data"));
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim()).toBe(
      "Niepoprawny plik eksportu: aktualnosci/1720000000001, pole „text”: oczekiwano tekstu. Nic nie zaimportowano.",
    );
    expect(await rowCounts()).toEqual(before);

    await fs.writeFile(path.join(tmp, "urwany.json"), '{"aktualnosci": {');
    const broken = await cli(["urwany.json"], path.join(tmp, "cli-data"));
    expect(broken.code).not.toBe(0);
    expect(broken.stderr).toMatch(/urwany\.json nie jest poprawnym JSON-em/);
  });
});

describe("deleting imported data", () => {
  it("never touches storage for an external image when it is deleted", async () => {
    // A disk store refuses such a key outright, so an attempt would throw.
    await expect(deleteImage({ key: `${base}/gone.jpg`, ...EXTERNAL_IMAGE_SIZE })).resolves.toBeUndefined();
    const trip = await galleryRows(TRIP);
    const [album] = await (await db()).select({ id: galleries.id }).from(galleries).where(eq(galleries.title, TRIP));
    // To the bin (files kept), then removed for good with the files only it used.
    expect(await deleteGallery({ title: TRIP })).toBe(true);
    expect(await purgeItem({ kind: "gallery", id: String(album.id) })).toBe(true);
    expect(await storage().exists(trip[0].key)).toBe(false);
    expect(await storage().exists(variantKey(trip[0].key, 480))).toBe(false);
  });
});

describe("editing an imported album in the pastor area", () => {
  it("makes a photo kept at its URL the cover, removes it and saves, never touching storage for it", async () => {
    const title = "Album z adresem";
    const missing = `${base}/missing-edit.jpg`;
    await importFirebase(
      parseFirebaseExport({
        galleries: {
          [title]: {
            title,
            date: "2018-05-05",
            images: [
              { name: "jest.jpg", url: `${base}/c1.jpg` },
              { name: "brak.jpg", url: missing },
            ],
          },
        },
      }),
      { timeoutMs: 5000, localOrigins: [base] },
    );
    await addPastor();
    const session = await signIn(PASTOR);
    const get = (url: string) => request(url, { headers: { Cookie: session } });
    const args = (req: Request) => ({ request: req, params: {}, context: {} });
    type Editor = { csrf: string; draftId: string | null; images: { key: string; name: string; thumb: string }[] };
    const open = async (url: string) => (await (await settle(() => editLoader(args(get(url))))).json()) as Editor;
    const editUrl = `/strefapastora/galeria/edytuj/${encodeURIComponent(title)}`;
    const send = async (url: string, csrf: string, intent: string) => {
      const body = new FormData();
      for (const [k, v] of [
        ["csrf", csrf],
        ["title", title],
        ["description", ""],
        ["date", "2018-05-05"],
        ["intent", intent],
      ])
        body.append(k, v);
      return settle(() =>
        editAction(args(request(url, { method: "POST", body, headers: { Cookie: session, Origin: ORIGIN } }))),
      );
    };

    const start = await open(editUrl);
    expect(start.images.map((i) => [i.name, i.thumb])).toEqual([
      ["jest.jpg", expect.stringMatching(/^\/pliki\/galeria\/firebase-.*-360\.webp$/)],
      ["brak.jpg", missing],
    ]);
    const stored = start.images[0].key;

    const covered = await send(editUrl, start.csrf, `cover:${missing}`);
    expect(covered.status).toBe(302);
    const draftUrl = covered.headers.get("Location")!;
    const draft = await open(draftUrl);
    expect(draft.images.map((i) => i.name)).toEqual(["brak.jpg", "jest.jpg"]);

    const removed = await send(draftUrl, start.csrf, `remove:${missing}`);
    expect(removed.status).toBe(302);
    expect((await open(removed.headers.get("Location")!)).images.map((i) => i.name)).toEqual(["jest.jpg"]);
    const saved = await send(removed.headers.get("Location")!, start.csrf, "save");
    expect(saved.status).toBe(302);
    expect((await galleryRows(title)).map((r) => r.key)).toEqual([stored]);
    expect(await storage().exists(stored)).toBe(true);
  });
});

describe("where images are downloaded from", () => {
  const importOne = async (id: string, url: string, options: Parameters<typeof importFirebase>[1] = {}) => {
    const summary = await importFirebase(
      parseFirebaseExport({ aktualnosci: { [id]: { header: "Wpis", text: "T", url, date: "2021-01-01" } } }),
      { timeoutMs: 5000, ...options },
    );
    return summary.failures.map((f) => f.reason);
  };
  const redirectTo = (target: string) => `${base}/redirect/${encodeURIComponent(target)}`;

  it("is only the old site's file host", async () => {
    expect(await importOne("1700000000001", `${base}/a.jpg`)).toEqual([
      `adres spoza https://firebasestorage.googleapis.com: nie pobrano`,
    ]);
  });

  it("refuses a loopback address of an allowed host, found after DNS resolution", async () => {
    const port = new URL(base).port;
    expect(
      await importOne("1700000000002", `http://localhost:${port}/a.jpg`, {
        extraOrigins: [`http://localhost:${port}`],
      }),
    ).toEqual([expect.stringMatching(/^adres prywatny lub lokalny \((127\.0\.0\.1|::1)\): nie pobrano$/)]);
    expect(await importOne("1700000000003", `${base}/a.jpg`, { extraOrigins: [base] })).toEqual([
      "adres prywatny lub lokalny (127.0.0.1): nie pobrano",
    ]);
    const [row] = await (await db()).select().from(articles).where(eq(articles.id, "1700000000003"));
    expect(row.imageKey).toBe(`${base}/a.jpg`);
  });

  it("checks every redirect hop", async () => {
    const port = new URL(base).port;
    expect(
      await importOne("1700000000004", redirectTo(`http://localhost:${port}/a.jpg`), { localOrigins: [base] }),
    ).toEqual([
      `przekierowanie na adres spoza https://firebasestorage.googleapis.com (http://localhost:${port}): nie pobrano`,
    ]);
    expect(await importOne("1700000000005", redirectTo(`${base}/a.jpg`), { localOrigins: [base] })).toEqual([]);
    const loop = redirectTo(redirectTo(redirectTo(redirectTo(redirectTo(`${base}/a.jpg`)))));
    expect(await importOne("1700000000006", loop, { localOrigins: [base] })).toEqual(["zbyt wiele przekierowań"]);
  });

  it.each([
    ["127.0.0.1", true],
    ["10.1.2.3", true],
    ["172.20.0.1", true],
    ["192.168.1.10", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["::1", true],
    ["::", true],
    ["fe80::1", true],
    ["fd00::1", true],
    ["::ffff:127.0.0.1", true],
    ["::ffff:7f00:1", true],
    ["142.250.186.138", false],
    ["2a00:1450:401b:800::200a", false],
  ])("counts %s as private or local: %s", (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});
