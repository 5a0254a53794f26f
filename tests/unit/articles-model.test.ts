// The original site's article rules and "nothing half-done", called as the
// routes call them: a real database, real sharp, real storage (this test
// file's upload folder on disk, and an s3rver that is stopped mid-save).
import type { EventEmitter } from "node:events";
import fs from "node:fs/promises";
import type http from "node:http";
import os from "node:os";
import path from "node:path";
import { CreateBucketCommand } from "@aws-sdk/client-s3";
import { eq, sql } from "drizzle-orm";
import S3rver from "s3rver";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { clock } from "~/services/clock.server";
import { articles } from "~/services/schema";
import { db } from "~/services/db.server";
import { IMAGE_MESSAGES } from "~/services/images.server";
import { allKeys } from "~/lib/image-variants";
import { createArticle, deleteArticle, updateArticle } from "~/features/articles/article-writes.server";
import { getArticle } from "~/features/articles/articles.server";
import { ARTICLE_MESSAGES } from "~/features/articles/messages";
import { type S3Storage, type Storage, s3Storage, storage } from "~/services/storage.server";
import { insertArticle } from "../fixtures";
import { allowConsoleError, resetDatabase } from "../helpers";

let tmp: string;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-articles-"));
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

let fileCount = 0;
/** A photo as parseUpload leaves it: a temporary file, and the name the browser sent. */
async function photo(name = "zdjecie.jpg", { width = 800, height = 600, colour = "#3366aa" } = {}) {
  const file = path.join(tmp, `upload-${++fileCount}`);
  await sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .toFile(file);
  return { input: file, name };
}

async function rawFile(name: string, data: Buffer | string) {
  const file = path.join(tmp, `upload-${++fileCount}`);
  await fs.writeFile(file, data);
  return { input: file, name };
}

async function rows() {
  return (await db()).select().from(articles).orderBy(articles.id);
}

async function row(id: string) {
  const [found] = await (await db()).select().from(articles).where(eq(articles.id, id));
  return found;
}

/** A new photo's key with its random part taken out, so lists read by name. */
function withoutNonce(key: string) {
  return key.replace(/\/[0-9a-f]{24}-/, "/");
}

/** Keys of every stored file under the article folder, each with its random part taken out. */
async function storedKeys(store: Storage = storage()) {
  const keys = (await store.list("aktualnosci/")).map((e) => e.key);
  for (const key of keys) expect(key).toMatch(/^aktualnosci\/[0-9a-f]{24}-/);
  return keys.map(withoutNonce).sort();
}

/** Files that a row names but storage does not hold: must always be none. */
async function missingFiles(store: Storage = storage()) {
  const missing: string[] = [];
  for (const r of await rows()) {
    if (!r.imageKey || !r.imageWidth) continue;
    for (const key of allKeys(r.imageKey, r.imageWidth)) if (!(await store.exists(key))) missing.push(key);
  }
  return missing;
}

const article = { header: "Nabożeństwo", text: "Zapraszamy.", date: "2025-05-04" };

/** Makes the database refuse a write to articles, as a failing database would. */
async function refuseWrites(op: "insert" | "update" | "delete") {
  const d = await db();
  await d.execute(
    sql.raw(`create or replace function refuse_article() returns trigger language plpgsql as $$
    begin raise exception 'writes to articles refused by the test'; end $$`),
  );
  await d.execute(
    sql.raw(`create trigger refuse_article before ${op} on articles for each row execute function refuse_article()`),
  );
  return async () => {
    await d.execute(sql.raw("drop trigger refuse_article on articles"));
  };
}

beforeEach(async () => {
  await resetDatabase();
  await fs.rm(path.join(process.env.DATA_DIR!, "uploads"), { recursive: true, force: true });
});

describe("adding an article", () => {
  it("stores the photo first, then the row with id = creation time in ms", async () => {
    vi.spyOn(clock, "now").mockReturnValue(new Date(1_750_000_000_123));
    const result = await createArticle({
      header: "  Nabożeństwo – zaproszenie ",
      text: "Pierwsza linia\r\nDruga linia\r\n\r\nhttps://example.org",
      date: "2025-05-04",
      image: await photo("IMG_0001.JPG"),
    });
    expect(result).toMatchObject({ ok: true, id: "1750000000123" });
    const saved = await row("1750000000123");
    expect(saved).toMatchObject({
      header: "Nabożeństwo – zaproszenie",
      // Stored with \n, whatever line breaks the browser sent.
      text: "Pierwsza linia\nDruga linia\n\nhttps://example.org",
      date: "2025-05-04",
      imageWidth: 800,
      imageHeight: 600,
    });
    // At least 16 random characters before the phone's name: no one finds a draft's photo by guessing.
    expect(saved.imageKey).toMatch(/^aktualnosci\/[0-9a-f]{24}-IMG_0001\.jpg$/);
    expect(await storedKeys()).toEqual([
      "aktualnosci/IMG_0001-360.avif",
      "aktualnosci/IMG_0001-360.webp",
      "aktualnosci/IMG_0001-480.avif",
      "aktualnosci/IMG_0001-480.webp",
      "aktualnosci/IMG_0001-640.avif",
      "aktualnosci/IMG_0001-640.webp",
      "aktualnosci/IMG_0001-720.avif",
      "aktualnosci/IMG_0001-720.webp",
      "aktualnosci/IMG_0001-800.avif",
      "aktualnosci/IMG_0001-800.jpeg",
      "aktualnosci/IMG_0001-800.webp",
      "aktualnosci/IMG_0001.jpg",
    ]);
    expect(await missingFiles()).toEqual([]);
  });

  it("gives two saves in the same millisecond different ids", async () => {
    vi.spyOn(clock, "now").mockReturnValue(new Date(1_750_000_000_000));
    await insertArticle({
      id: "1750000000000",
      header: "Już jest",
      imageKey: null,
      imageWidth: null,
      imageHeight: null,
    });
    const results = await Promise.all([
      createArticle({ ...article, header: "Pierwszy", image: await photo("a.jpg") }),
      createArticle({ ...article, header: "Drugi", image: await photo("a.jpg") }),
      createArticle({ ...article, header: "Trzeci", image: await photo("a.jpg") }),
    ]);
    const ids = results.map((r) => (r.ok ? r.id : r.message));
    expect([...ids].sort()).toEqual(["1750000000001", "1750000000002", "1750000000003"]);
    expect((await rows()).map((r) => r.header).sort()).toEqual(["Drugi", "Już jest", "Pierwszy", "Trzeci"]);
    // The same file name three times: three keys, each with its own random part.
    const keys = (await rows()).map((r) => r.imageKey).filter((k) => k !== null);
    expect(keys).toHaveLength(3);
    for (const k of keys) expect(k).toMatch(/^aktualnosci\/[0-9a-f]{24}-a\.jpg$/);
    expect(new Set(keys).size).toBe(3);
    expect(await missingFiles()).toEqual([]);
  });

  it("names every missing field, the photo included", async () => {
    const result = await createArticle({ header: "Nagłówek", text: " ", date: "", image: null });
    expect(result).toEqual({
      ok: false,
      status: 400,
      message: "Wypełnij wszystkie pola",
      fields: ["text", "date", "image"],
    });
  });

  it.each([
    ["the photo", { image: null }],
    ["the header", { header: "" }],
    ["the header (only spaces)", { header: "   \r\n " }],
    ["the text", { text: "" }],
    ["the date", { date: "" }],
  ])("refuses a form without %s: 'Wypełnij wszystkie pola', nothing stored", async (_, missing) => {
    const result = await createArticle({ ...article, image: await photo(), ...missing });
    expect(result).toMatchObject({ ok: false, status: 400, message: "Wypełnij wszystkie pola" });
    expect(await rows()).toEqual([]);
    expect(await storedKeys()).toEqual([]);
  });

  it.each(["2025-02-30", "04.05.2025", "jutro", "0001-01-01"])("refuses the date %j", async (date) => {
    const result = await createArticle({ ...article, date, image: await photo() });
    expect(result).toMatchObject({ ok: false, status: 400, message: ARTICLE_MESSAGES.badDate, fields: ["date"] });
    expect(await rows()).toEqual([]);
  });

  it("refuses text that is not text: numbers in place of strings count as missing", async () => {
    const result = await createArticle({ header: 42, text: ["a"], date: 20250504, image: await photo() });
    expect(result).toMatchObject({ ok: false, message: "Wypełnij wszystkie pola" });
  });

  it("drops stray control characters, and refuses NUL and bytes that were not UTF-8", async () => {
    for (const header of ["Na\u0000główek", "Nag\uFFFDówek"]) {
      const result = await createArticle({ ...article, header, image: await photo() });
      expect(result).toEqual({ ok: false, status: 400, message: ARTICLE_MESSAGES.badCharacters, fields: ["header"] });
    }
    expect(await rows()).toEqual([]);
    const result = await createArticle({ ...article, header: "Nagłó\u000Bwek\u0007", image: await photo() });
    expect(result.ok).toBe(true);
    expect((await rows())[0].header).toBe("Nagłówek");
  });

  it("refuses an over-long header with a Polish message", async () => {
    const result = await createArticle({ ...article, header: "x".repeat(301), image: await photo() });
    expect(result).toMatchObject({ ok: false, message: "Nagłówek może mieć najwyżej 300 znaków.", fields: ["header"] });
  });

  it("refuses what is not a photo with the pipeline's message, storing nothing", async () => {
    const heic = Buffer.alloc(1024);
    heic.writeUInt32BE(24, 0);
    heic.write("ftypheic", 4, "latin1");
    heic.write("mif1heic", 16, "latin1");
    const bigPng = await sharp({ create: { width: 8000, height: 7600, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    const cases = [
      [await rawFile("zdjecie.jpg", "to nie jest zdjęcie\n".repeat(50)), IMAGE_MESSAGES.notImage],
      [await rawFile("IMG_1234.HEIC", heic), IMAGE_MESSAGES.heic],
      [await rawFile("panorama.png", bigPng), IMAGE_MESSAGES.tooManyPixels],
    ] as const;
    for (const [image, message] of cases) {
      const result = await createArticle({ ...article, image });
      expect(result).toEqual({ ok: false, status: 400, message, fields: ["image"] });
    }
    expect(await rows()).toEqual([]);
    expect(await storedKeys()).toEqual([]);
  });

  it("removes the stored photo when the row cannot be written", async () => {
    const allow = await refuseWrites("insert");
    try {
      const result = await createArticle({ ...article, image: await photo("odrzucone.jpg") });
      expect(result).toEqual({ ok: false, status: 500, message: ARTICLE_MESSAGES.saveFailed });
    } finally {
      await allow();
    }
    expect(await rows()).toEqual([]);
    expect(await storedKeys()).toEqual([]);
  });
});

describe("editing an article", () => {
  async function existing() {
    const result = await createArticle({ ...article, image: await photo("stare.jpg", { colour: "#aa3333" }) });
    if (!result.ok) throw new Error(result.message);
    return (await row(result.id))!;
  }

  it("changes header, text and date and keeps the photo when 'Zmień zdjęcie' is not ticked", async () => {
    const before = await existing();
    // A photo sent without the tick is ignored, as on the original site.
    const result = await updateArticle({
      id: before.id,
      header: "Nowy nagłówek",
      text: "Nowa\r\ntreść",
      date: "2025-06-01",
      image: await photo("nowe.jpg"),
    });
    expect(result).toMatchObject({ ok: true, id: before.id });
    expect(await row(before.id)).toEqual({
      ...before,
      header: "Nowy nagłówek",
      text: "Nowa\ntreść",
      date: "2025-06-01",
      // Every save counts up the version an edit begins from.
      version: before.version + 1,
    });
    expect(await storedKeys()).toEqual([
      "aktualnosci/stare-360.avif",
      "aktualnosci/stare-360.webp",
      "aktualnosci/stare-480.avif",
      "aktualnosci/stare-480.webp",
      "aktualnosci/stare-640.avif",
      "aktualnosci/stare-640.webp",
      "aktualnosci/stare-720.avif",
      "aktualnosci/stare-720.webp",
      "aktualnosci/stare-800.avif",
      "aktualnosci/stare-800.jpeg",
      "aktualnosci/stare-800.webp",
      "aktualnosci/stare.jpg",
    ]);
  });

  it("replaces the photo when ticked and chosen, removing the old files after the change", async () => {
    const before = await existing();
    const result = await updateArticle({
      id: before.id,
      ...article,
      changeImage: "1",
      image: await photo("nowe.jpg", { width: 1200, height: 900 }),
    });
    expect(result.ok).toBe(true);
    const after = await row(before.id);
    expect(after).toMatchObject({ imageWidth: 1200, imageHeight: 900 });
    expect(withoutNonce(after.imageKey!)).toBe("aktualnosci/nowe.jpg");
    expect(await storedKeys()).toEqual([
      "aktualnosci/nowe-1200.avif",
      "aktualnosci/nowe-1200.jpeg",
      "aktualnosci/nowe-1200.webp",
      "aktualnosci/nowe-360.avif",
      "aktualnosci/nowe-360.webp",
      "aktualnosci/nowe-480.avif",
      "aktualnosci/nowe-480.webp",
      "aktualnosci/nowe-640.avif",
      "aktualnosci/nowe-640.webp",
      "aktualnosci/nowe-720.avif",
      "aktualnosci/nowe-720.webp",
      "aktualnosci/nowe-960.avif",
      "aktualnosci/nowe-960.webp",
      "aktualnosci/nowe.jpg",
    ]);
    expect((await getArticle(before.id))?.image?.src).toBe(`/pliki/${after.imageKey!.slice(0, -4)}-960.webp`);
  });

  it("refuses a blank header or text: 'Tytuł i treść nie mogą być puste!', nothing changes", async () => {
    const before = await existing();
    for (const blank of [{ header: "  " }, { text: "\r\n \t" }, { header: "", text: "" }]) {
      const result = await updateArticle({ id: before.id, ...article, ...blank });
      expect(result).toMatchObject({ ok: false, status: 400, message: "Tytuł i treść nie mogą być puste!" });
    }
    expect(await row(before.id)).toEqual(before);
  });

  it("asks for a photo when 'Zmień zdjęcie' is ticked without one", async () => {
    const before = await existing();
    const result = await updateArticle({ id: before.id, ...article, header: "Zmiana", changeImage: "1", image: null });
    expect(result).toMatchObject({
      ok: false,
      message: "Jeśli chcesz zmienić zdjęcie, wybierz zdjęcie!",
      fields: ["image"],
    });
    expect(await row(before.id)).toEqual(before);
  });

  it("keeps a legacy comma date when no new date is chosen, and takes a new one", async () => {
    const legacy = await insertArticle({
      date: "12 września 2020, sobota",
      imageKey: null,
      imageWidth: null,
      imageHeight: null,
    });
    expect(await updateArticle({ id: legacy.id, header: "Modlitwa", text: "Treść", date: "" })).toMatchObject({
      ok: true,
    });
    expect((await row(legacy.id)).date).toBe("12 września 2020, sobota");
    expect(await updateArticle({ id: legacy.id, header: "Modlitwa", text: "Treść", date: "2020-09-12" })).toMatchObject(
      { ok: true },
    );
    expect((await row(legacy.id)).date).toBe("2020-09-12");
  });

  it("answers 'nie ma takiego dokumentu' for an unknown id and stores nothing", async () => {
    for (const id of ["1", "../1", ""]) {
      const result = await updateArticle({ id, ...article, changeImage: "1", image: await photo() });
      expect(result).toMatchObject({ ok: false, status: 404, message: "nie ma takiego dokumentu" });
    }
    expect(await storedKeys()).toEqual([]);
  });

  it("keeps the old photo and removes the new one when the row cannot be changed", async () => {
    const before = await existing();
    const allow = await refuseWrites("update");
    try {
      const result = await updateArticle({
        id: before.id,
        ...article,
        header: "Zmiana",
        changeImage: "1",
        image: await photo("nowe.jpg"),
      });
      expect(result).toMatchObject({ ok: false, message: ARTICLE_MESSAGES.saveFailed });
    } finally {
      await allow();
    }
    expect(await row(before.id)).toEqual(before);
    expect(await storedKeys()).toEqual([
      "aktualnosci/stare-360.avif",
      "aktualnosci/stare-360.webp",
      "aktualnosci/stare-480.avif",
      "aktualnosci/stare-480.webp",
      "aktualnosci/stare-640.avif",
      "aktualnosci/stare-640.webp",
      "aktualnosci/stare-720.avif",
      "aktualnosci/stare-720.webp",
      "aktualnosci/stare-800.avif",
      "aktualnosci/stare-800.jpeg",
      "aktualnosci/stare-800.webp",
      "aktualnosci/stare.jpg",
    ]);
  });
});

describe("deleting an article", () => {
  it("moves it to the bin: gone from the pages, its row and files kept", async () => {
    const created = await createArticle({ ...article, image: await photo("usun.jpg") });
    if (!created.ok) throw new Error(created.message);
    expect(await deleteArticle({ id: created.id })).toEqual({ ok: true, header: "Nabożeństwo" });
    expect(await getArticle(created.id)).toBeNull();
    expect((await rows()).map((r) => r.deletedAt !== null)).toEqual([true]);
    expect(await missingFiles()).toEqual([]);
    expect(await storedKeys()).toHaveLength(12); // the photo, its sharing JPEG, 5 WebP and 5 AVIF widths
    expect(await deleteArticle({ id: created.id })).toMatchObject({ ok: false, status: 404 });
  });

  it("leaves the article in place when the database refuses the change", async () => {
    const created = await createArticle({ ...article, image: await photo("zostaje.jpg") });
    if (!created.ok) throw new Error(created.message);
    const allow = await refuseWrites("update");
    try {
      await expect(deleteArticle({ id: created.id })).rejects.toThrow();
    } finally {
      await allow();
    }
    expect((await rows()).map((r) => r.id)).toEqual([created.id]);
    expect(await getArticle(created.id)).not.toBeNull();
    expect(await missingFiles()).toEqual([]);
    expect(await storedKeys()).toHaveLength(12);
  });
});

describe("disk storage failing in the middle of a save", () => {
  // The WebP variants are written, then the large JPEG (written last)
  // fails, as a full or broken disk would.
  function failingLastWrite(): Storage {
    const disk = storage();
    const refuse = (key: string) => {
      if (key.endsWith(".jpg")) throw new Error("ENOSPC");
    };
    return {
      ...disk,
      put: async (key, ...rest) => (refuse(key), disk.put(key, ...rest)),
      putFile: async (key, ...rest) => (refuse(key), disk.putFile(key, ...rest)),
    };
  }

  it("adds nothing, keeps the typed text out of the database, and leaves no files", async () => {
    const result = await createArticle({ ...article, image: await photo("awaria.jpg") }, { store: failingLastWrite() });
    expect(result).toEqual({
      ok: false,
      status: 503,
      message: "Nie udało się zapisać zdjęcia. Spróbuj ponownie.",
      fields: ["image"],
    });
    expect(await rows()).toEqual([]);
    expect(await storedKeys()).toEqual([]);
  });

  it("leaves the edited article as it was", async () => {
    const created = await createArticle({ ...article, image: await photo("stare.jpg") });
    if (!created.ok) throw new Error(created.message);
    const before = await row(created.id);
    const result = await updateArticle(
      {
        id: created.id,
        header: "Zmiana",
        text: "Inna",
        date: "2025-07-07",
        changeImage: "1",
        image: await photo("awaria.jpg"),
      },
      { store: failingLastWrite() },
    );
    expect(result).toMatchObject({ ok: false, status: 503, message: ARTICLE_MESSAGES.storageFailed });
    expect(await row(created.id)).toEqual(before);
    expect(await missingFiles()).toEqual([]);
    expect(await storedKeys()).toEqual([
      "aktualnosci/stare-360.avif",
      "aktualnosci/stare-360.webp",
      "aktualnosci/stare-480.avif",
      "aktualnosci/stare-480.webp",
      "aktualnosci/stare-640.avif",
      "aktualnosci/stare-640.webp",
      "aktualnosci/stare-720.avif",
      "aktualnosci/stare-720.webp",
      "aktualnosci/stare-800.avif",
      "aktualnosci/stare-800.jpeg",
      "aktualnosci/stare-800.webp",
      "aktualnosci/stare.jpg",
    ]);
  });
});

describe("S3 storage (s3rver) stopped in the middle of a save", () => {
  const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  let dir: string;
  let server: S3rver;
  let port: number;
  let s3: S3Storage;
  let stopAfterPuts: number | null = null;
  let puts = 0;

  async function start() {
    server = new S3rver({ address: "127.0.0.1", port, silent: true, directory: dir });
    port = (await server.run()).port;
    // Counts stored objects; after the chosen number the storage goes away
    // at once, dropping the connection that is still waiting for its answer.
    (server as unknown as EventEmitter).on("event", () => {
      puts++;
      if (stopAfterPuts !== null && puts >= stopAfterPuts) {
        stopAfterPuts = null;
        void stop();
      }
    });
  }
  let stopping: Promise<void> | null = null;
  function stop() {
    // s3rver's own logger complains (console.error) when a request it was
    // serving ends after the server closed; that noise is not the app's.
    allowConsoleError();
    const httpServer = (server as unknown as { httpServer: http.Server }).httpServer;
    stopping = server.close();
    httpServer.closeAllConnections();
    return stopping;
  }

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-s3rver-"));
    port = 0;
    await start();
    s3 = s3Storage({
      bucket: "artykuly",
      region: "us-east-1",
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      credentials: CREDENTIALS,
    });
    await (await s3.client()).send(new CreateBucketCommand({ Bucket: s3.bucket }));
  });
  afterAll(async () => {
    await s3?.close();
    await server?.close().catch(() => {});
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function restart() {
    await stopping;
    stopping = null;
    await start();
  }

  it("adds nothing and says so in Polish; every row's files exist afterwards", async () => {
    const kept = await createArticle(
      { ...article, header: "Przed awarią", image: await photo("przed.jpg") },
      { store: s3 },
    );
    expect(kept.ok).toBe(true);

    puts = 0;
    stopAfterPuts = 1;
    const result = await createArticle(
      { ...article, header: "W czasie awarii", image: await photo("awaria.jpg") },
      { store: s3 },
    );
    expect(result).toEqual({
      ok: false,
      status: 503,
      message: "Nie udało się zapisać zdjęcia. Spróbuj ponownie.",
      fields: ["image"],
    });
    expect(puts).toBe(1);

    await restart();
    expect((await rows()).map((r) => r.header)).toEqual(["Przed awarią"]);
    expect(await missingFiles(s3)).toEqual([]);
    // The large JPEG, written last, never arrived: no row could name this photo.
    expect(await storedKeys(s3)).not.toContain("aktualnosci/awaria.jpg");
  });

  it("leaves the edited article as it was", async () => {
    const created = await createArticle({ ...article, image: await photo("stare.jpg") }, { store: s3 });
    if (!created.ok) throw new Error(created.message);
    const before = await row(created.id);

    puts = 0;
    stopAfterPuts = 2;
    const result = await updateArticle(
      {
        id: created.id,
        header: "Zmiana",
        text: "Inna treść",
        date: "2025-07-07",
        changeImage: "1",
        image: await photo("nowe.jpg", { width: 1600, height: 1200 }),
      },
      { store: s3 },
    );
    expect(result).toMatchObject({ ok: false, status: 503, message: ARTICLE_MESSAGES.storageFailed });

    await restart();
    expect(await row(created.id)).toEqual(before);
    expect(await missingFiles(s3)).toEqual([]);
    expect(await storedKeys(s3)).not.toContain("aktualnosci/nowe.jpg");
  });

  it("refuses at once when the storage is down before the save begins", async () => {
    await stop();
    const result = await createArticle({ ...article, image: await photo("zamknieta.jpg") }, { store: s3 });
    expect(result).toMatchObject({ ok: false, status: 503, message: ARTICLE_MESSAGES.storageFailed });
    await restart();
    expect(await rows()).toEqual([]);
  });
});
