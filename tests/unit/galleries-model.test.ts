// Album rules of the pastor area on a real database, real disk storage and
// real sharp: drafts, order, save, rename, delete and the cleanup.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import postgres from "postgres";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { clock } from "~/services/clock.server";
import { galleries, galleryDraftImages, galleryDrafts, galleryImages } from "~/services/schema";
import { db, isUniqueViolation } from "~/services/db.server";
import { type StoredImage, storeImage } from "~/services/images.server";
import { allKeys } from "~/lib/image-variants";
import {
  deleteGallery,
  getGalleryByTitle,
  getGalleryForEditor,
  listGalleryCards,
} from "~/features/galleries/galleries.server";
import { GALLERY_MESSAGES, checkGalleryValues } from "~/features/galleries/album-values";
import { changeDraftImages, createDraft, getDraft, newDraftFolder } from "~/features/galleries/drafts.server";
import { addPhotos, reportFor } from "~/features/galleries/draft-photos.server";
import { saveGallery } from "~/features/galleries/save.server";
import {
  DRAFT_TTL_MS,
  baseKeyOf,
  cleanupGalleryDrafts,
  scheduleGalleryCleanup,
} from "~/features/galleries/cleanup.server";
import { type Storage, storage } from "~/services/storage.server";
import { createUser } from "~/features/auth/users.server";
import { purgeItem } from "~/features/bin/bin.server";
import { insertArticle } from "../fixtures";
import { resetDatabase } from "../helpers";

const HOUR = 60 * 60 * 1000;
let userId: number;
let tmp: string;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-galleries-"));
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

beforeEach(async () => {
  vi.restoreAllMocks();
  await resetDatabase();
  await fs.rm(path.join(process.env.DATA_DIR!, "uploads"), { recursive: true, force: true });
  userId = (await createUser({ email: "pastor@example.org", password: "haslo-testowe-123" })).id;
});

/** A small photo on disk, as parseUpload leaves an upload. */
async function photoFile(name: string, colour = "#6699cc"): Promise<{ name: string; path: string }> {
  const file = path.join(tmp, `${Math.random().toString(36).slice(2)}.bin`);
  await sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
    .jpeg()
    .toFile(file);
  return { name, path: file };
}

/** The first bytes of an iPhone photo: an ISO box of brand "heic". */
async function heicFile(name: string) {
  const file = path.join(tmp, `${Math.random().toString(36).slice(2)}.bin`);
  const head = Buffer.alloc(32);
  head.writeUInt32BE(24, 0);
  head.write("ftypheic", 4, "latin1");
  head.write("mif1heic", 16, "latin1");
  await fs.writeFile(file, Buffer.concat([head, Buffer.alloc(2000, 7)]));
  return { name, path: file };
}

const values = (title: string, extra: Partial<{ description: string; date: string }> = {}) => ({
  title,
  description: "",
  date: "2025-05-01",
  ...extra,
});

/** A new-album draft holding these photos. */
async function draftWith(names: string[], title = "") {
  const folder = newDraftFolder();
  const photos = await Promise.all(names.map((n, i) => photoFile(n, `hsl(${i * 60},60%,50%)`)));
  const { draftId, results } = await addPhotos({
    draftId: null,
    folder,
    startDraft: () => createDraft({ userId, values: values(title), folder }),
    photos,
  });
  return { draftId: draftId!, results };
}

async function order(draftId: string) {
  return (await getDraft({ id: draftId, userId }))!.images.map((i) => i.name);
}

const keysOf = (image: StoredImage) => allKeys(image.key, image.width);

async function filesOf(image: StoredImage) {
  return Promise.all(allKeys(image.key, image.width).map((k) => storage().exists(k)));
}

async function count(
  table: typeof galleryDrafts | typeof galleries | typeof galleryImages | typeof galleryDraftImages,
) {
  return (await (await db()).select().from(table)).length;
}

describe("values of an album", () => {
  it("trims the title and refuses an empty or whitespace-only one", () => {
    expect(checkGalleryValues(values("  Obóz  ")).values.title).toBe("Obóz");
    expect(checkGalleryValues(values("")).fieldErrors?.title).toBe("Podaj tytuł galerii.");
    expect(checkGalleryValues(values(" \t ")).fieldErrors?.title).toBe("Podaj tytuł galerii.");
  });

  it("keeps any printable title, and refuses control characters, dot-only titles and the add page's name", () => {
    expect(checkGalleryValues(values("a/b?c#d&e%f+g ż 🎉")).fieldErrors).toBeNull();
    expect(checkGalleryValues(values("a\u0000b")).fieldErrors?.title).toBe(GALLERY_MESSAGES.titleControl);
    expect(checkGalleryValues(values("..")).fieldErrors?.title).toBe(GALLERY_MESSAGES.titleDots);
    expect(checkGalleryValues(values("Dodaj")).fieldErrors?.title).toBe(GALLERY_MESSAGES.titleReserved);
    expect(checkGalleryValues(values("x".repeat(201))).fieldErrors?.title).toBe(GALLERY_MESSAGES.titleTooLong);
  });

  it("requires a real calendar date", () => {
    expect(checkGalleryValues(values("A", { date: "" })).fieldErrors?.date).toBe("Podaj datę galerii.");
    expect(checkGalleryValues(values("A", { date: "2025-02-30" })).fieldErrors?.date).toBe(
      GALLERY_MESSAGES.dateInvalid,
    );
    expect(checkGalleryValues(values("A", { date: "2024-02-29" })).fieldErrors).toBeNull();
    // The same rule as an article's date: a year before 1900 is a typing slip.
    expect(checkGalleryValues(values("A", { date: "0001-01-01" })).fieldErrors?.date).toBe(
      GALLERY_MESSAGES.dateInvalid,
    );
  });
});

describe("a batch of photos", () => {
  it("adds each file on its own and names every refused file with its reason", async () => {
    const folder = newDraftFolder();
    const photos = [
      ...(await Promise.all(["IMG_0040.JPG", "IMG_0041.JPG"].map((n) => photoFile(n)))),
      await heicFile("IMG_0042.HEIC"),
      { name: "notatki.jpg", path: path.join(tmp, "notatki.txt") },
      await photoFile("IMG_0043.JPG"),
    ];
    await fs.writeFile(photos[3].path, "to nie jest zdjęcie");
    const { draftId, results } = await addPhotos({
      draftId: null,
      folder,
      startDraft: () => createDraft({ userId, values: values("Obóz"), folder }),
      photos,
    });
    expect(reportFor(results)).toBe(
      "3 z 5 zdjęć dodano; IMG_0042.HEIC: format HEIC nie jest obsługiwany; notatki.jpg: to nie jest zdjęcie w formacie JPEG, PNG ani WebP",
    );
    expect(await order(draftId!)).toEqual(["IMG_0040.JPG", "IMG_0041.JPG", "IMG_0043.JPG"]);
    const draft = (await getDraft({ id: draftId!, userId }))!;
    for (const image of draft.images) {
      expect(image.key.startsWith(`galeria/${folder}/`)).toBe(true);
      expect(await filesOf(image)).toEqual([true, true, true, true]);
    }
  });

  it("leaves no draft and no file when nothing is accepted", async () => {
    const folder = newDraftFolder();
    const start = vi.fn(() => createDraft({ userId, values: values("x"), folder }));
    const { draftId, results } = await addPhotos({
      draftId: null,
      folder,
      startDraft: start,
      photos: [await heicFile("a.heic")],
    });
    expect(draftId).toBeNull();
    expect(start).not.toHaveBeenCalled();
    expect(reportFor(results)).toBe("0 z 1 zdjęcia dodano; a.heic: format HEIC nie jest obsługiwany");
    expect(await count(galleryDrafts)).toBe(0);
    expect(await storage().list("galeria/")).toEqual([]);
  });

  it("gives two files of the same name different keys", async () => {
    const { draftId } = await draftWith(["IMG_0001.JPG", "IMG_0001.JPG"]);
    const keys = (await getDraft({ id: draftId, userId }))!.images.map((i) => i.key);
    expect(keys[0]).toMatch(/\/[0-9a-f]{24}-IMG_0001\.jpg$/);
    expect(keys[1]).toMatch(/\/[0-9a-f]{24}-IMG_0001\.jpg$/);
    expect(keys[1]).not.toBe(keys[0]);
  });
});

describe("order in a draft", () => {
  it("moves a photo up, down, to the cover, and removes it", async () => {
    const { draftId } = await draftWith(["a.jpg", "b.jpg", "c.jpg", "d.jpg"]);
    const keyOf = async (name: string) =>
      (await getDraft({ id: draftId, userId }))!.images.find((i) => i.name === name)!.key;

    expect(await changeDraftImages({ draftId, change: { kind: "up", key: await keyOf("c.jpg") } })).toBe("ok");
    expect(await order(draftId)).toEqual(["a.jpg", "c.jpg", "b.jpg", "d.jpg"]);
    await changeDraftImages({ draftId, change: { kind: "down", key: await keyOf("a.jpg") } });
    expect(await order(draftId)).toEqual(["c.jpg", "a.jpg", "b.jpg", "d.jpg"]);
    await changeDraftImages({ draftId, change: { kind: "cover", key: await keyOf("d.jpg") } });
    expect(await order(draftId)).toEqual(["d.jpg", "c.jpg", "a.jpg", "b.jpg"]);
    // The ends stay put.
    await changeDraftImages({ draftId, change: { kind: "up", key: await keyOf("d.jpg") } });
    await changeDraftImages({ draftId, change: { kind: "down", key: await keyOf("b.jpg") } });
    expect(await order(draftId)).toEqual(["d.jpg", "c.jpg", "a.jpg", "b.jpg"]);

    const removed = (await getDraft({ id: draftId, userId }))!.images.find((i) => i.name === "a.jpg")!;
    await changeDraftImages({ draftId, change: { kind: "remove", key: removed.key } });
    expect(await order(draftId)).toEqual(["d.jpg", "c.jpg", "b.jpg"]);
    // An upload nothing else names goes with its row.
    expect(await filesOf(removed)).toEqual([false, false, false, false]);

    expect(await changeDraftImages({ draftId, change: { kind: "up", key: "galeria/nie-ma.jpg" } })).toBe(
      "image-unknown",
    );
  });

  it("takes a whole new order, keeping photos it does not name after the named ones", async () => {
    const { draftId } = await draftWith(["a.jpg", "b.jpg", "c.jpg", "d.jpg"]);
    const keys = (await getDraft({ id: draftId, userId }))!.images.map((i) => i.key);
    await changeDraftImages({ draftId, change: { kind: "order", keys: [keys[2], keys[0], "galeria/obce.jpg"] } });
    expect(await order(draftId)).toEqual(["c.jpg", "a.jpg", "b.jpg", "d.jpg"]);
  });
});

describe("saving", () => {
  it("creates the album with the draft's order in one step and removes the draft", async () => {
    const { draftId } = await draftWith(["a.jpg", "b.jpg", "c.jpg"]);
    const keys = (await getDraft({ id: draftId, userId }))!.images.map((i) => i.key);
    await changeDraftImages({ draftId, change: { kind: "cover", key: keys[2] } });

    const saved = await saveGallery({
      userId,
      draftId,
      galleryId: null,
      values: values("  Obóz młodzieży 2025 ", { description: "Góry\r\ni las" }),
    });
    expect(saved).toMatchObject({ ok: true, title: "Obóz młodzieży 2025" });
    const album = (await getGalleryByTitle("Obóz młodzieży 2025"))!;
    expect(album.description).toBe("Góry\ni las");
    expect(album.images.map((i) => i.name)).toEqual(["c.jpg", "a.jpg", "b.jpg"]);
    expect((await listGalleryCards())[0].cover?.full).toBe(album.images[0].full);
    expect(await count(galleryDrafts)).toBe(0);
    expect(await count(galleryDraftImages)).toBe(0);
  });

  it("refuses a title another album has, keeping the draft", async () => {
    await saveGallery({ userId, draftId: null, galleryId: null, values: values("Piknik") });
    const { draftId } = await draftWith(["a.jpg"]);
    const saved = await saveGallery({ userId, draftId, galleryId: null, values: values("Piknik") });
    expect(saved).toEqual({ ok: false, error: "Jest już galeria o podanym tytule!" });
    expect(await order(draftId)).toEqual(["a.jpg"]);
    expect(await count(galleries)).toBe(1);
  });

  it("answers two saves racing for one title with the same message, not an error", async () => {
    const a = await draftWith(["a.jpg"]);
    const b = await draftWith(["b.jpg"]);
    const results = await Promise.all([
      saveGallery({ userId, draftId: a.draftId, galleryId: null, values: values("Wspólny tytuł") }),
      saveGallery({ userId, draftId: b.draftId, galleryId: null, values: values("Wspólny tytuł") }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, error: "Jest już galeria o podanym tytule!" }]);
    expect(await count(galleries)).toBe(1);
  });

  it("recognises the database's own refusal of a second album with one title", async () => {
    const d = await db();
    await d.insert(galleries).values(values("Jeden"));
    const error = await d
      .insert(galleries)
      .values(values("Jeden"))
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isUniqueViolation(error, "galleries_title_key")).toBe(true);
    expect(isUniqueViolation(error, "users_email_lower_key")).toBe(false);
    expect(isUniqueViolation(new Error("x"), "galleries_title_key")).toBe(false);
  });

  it("renames an album in one step: same album, new title, old title gone", async () => {
    const { draftId } = await draftWith(["a.jpg", "b.jpg"]);
    await saveGallery({ userId, draftId, galleryId: null, values: values("Stary tytuł") });
    const before = (await getGalleryForEditor("Stary tytuł"))!;

    const edit = (await createDraft({ userId, galleryId: before.id, values: values("Nowy / tytuł? #1 & 100% + ż") }))!;
    expect(await order(edit)).toEqual(["a.jpg", "b.jpg"]);
    const saved = await saveGallery({
      userId,
      draftId: edit,
      galleryId: before.id,
      values: values("Nowy / tytuł? #1 & 100% + ż"),
    });
    expect(saved).toMatchObject({ ok: true, title: "Nowy / tytuł? #1 & 100% + ż" });
    expect(await getGalleryByTitle("Stary tytuł")).toBeNull();
    const after = (await getGalleryForEditor("Nowy / tytuł? #1 & 100% + ż"))!;
    expect(after.id).toBe(before.id);
    expect(after.images).toEqual(before.images);
    // Files it still shows are kept.
    for (const image of after.images) expect(await filesOf(image)).toEqual([true, true, true, true]);
  });

  it("never renames onto another album's title", async () => {
    await saveGallery({ userId, draftId: null, galleryId: null, values: values("Koncert") });
    const { draftId } = await draftWith(["a.jpg"]);
    await saveGallery({ userId, draftId, galleryId: null, values: values("Piknik") });
    const piknik = (await getGalleryForEditor("Piknik"))!;

    const edit = (await createDraft({ userId, galleryId: piknik.id, values: values("Koncert") }))!;
    expect(await saveGallery({ userId, draftId: edit, galleryId: piknik.id, values: values("Koncert") })).toEqual({
      ok: false,
      error: "Jest już galeria o podanym tytule!",
    });
    // Without a draft too.
    expect(await saveGallery({ userId, draftId: null, galleryId: piknik.id, values: values("Koncert") })).toMatchObject(
      { ok: false },
    );
    expect((await getGalleryForEditor("Piknik"))!.images).toEqual(piknik.images);
    expect((await getGalleryForEditor("Koncert"))!.images).toEqual([]);
  });

  it("deletes, after the commit, the files of photos an edit removed, unless a draft still names them", async () => {
    const { draftId } = await draftWith(["a.jpg", "b.jpg", "c.jpg"]);
    await saveGallery({ userId, draftId, galleryId: null, values: values("Album") });
    const album = (await getGalleryForEditor("Album"))!;
    const [a, b] = album.images;

    // A second, unsaved edit still shows b (not a).
    const other = (await createDraft({ userId, galleryId: album.id, values: values("Album") }))!;
    await changeDraftImages({ draftId: other, change: { kind: "remove", key: a.key } });
    const edit = (await createDraft({ userId, galleryId: album.id, values: values("Album") }))!;
    await changeDraftImages({ draftId: edit, change: { kind: "remove", key: a.key } });
    await changeDraftImages({ draftId: edit, change: { kind: "remove", key: b.key } });
    // Still shown by the album until the edit is saved.
    expect(await filesOf(a)).toEqual([true, true, true, true]);

    expect(await saveGallery({ userId, draftId: edit, galleryId: album.id, values: values("Album") })).toMatchObject({
      ok: true,
    });
    expect((await getGalleryByTitle("Album"))!.images.map((i) => i.name)).toEqual(["c.jpg"]);
    expect(await filesOf(a)).toEqual([false, false, false, false]);
    expect(await filesOf(b)).toEqual([true, true, true, true]);
    expect(await order(other)).toEqual(["b.jpg", "c.jpg"]);
  });
});

describe("deleting", () => {
  it("moves the album to the bin, ends its edit drafts and their photos; a purge then removes its files", async () => {
    const { draftId } = await draftWith(["a.jpg", "b.jpg"]);
    await saveGallery({ userId, draftId, galleryId: null, values: values("Do usunięcia") });
    const album = (await getGalleryForEditor("Do usunięcia"))!;
    // An unsaved edit with one more photo.
    const folder = newDraftFolder();
    const edit = (await createDraft({ userId, galleryId: album.id, values: values("Do usunięcia"), folder }))!;
    await addPhotos({ draftId: edit, folder, startDraft: async () => edit, photos: [await photoFile("nowe.jpg")] });
    const drafted = (await getDraft({ id: edit, userId }))!.images.find((i) => i.name === "nowe.jpg")!;

    expect(await deleteGallery({ title: "Do usunięcia" })).toBe(true);
    expect(await filesOf(drafted)).toEqual([false, false, false, false]);
    for (const image of album.images) expect(await filesOf(image)).toEqual([true, true, true, true]);
    expect(await getGalleryByTitle("Do usunięcia")).toBeNull();
    expect(await getDraft({ id: edit, userId })).toBeNull();
    expect(await deleteGallery({ title: "Do usunięcia" })).toBe(false);

    // Watches each file deletion: by then the album must be gone for everyone (committed).
    const seenAtDelete: number[] = [];
    const store = storage();
    const watching: Storage = {
      ...store,
      async delete(key) {
        seenAtDelete.push(await outsideCount(album.id));
        await store.delete(key);
      },
    };
    expect(await purgeItem({ kind: "gallery", id: String(album.id) }, watching)).toBe(true);
    expect(seenAtDelete.length).toBe(8);
    expect(new Set(seenAtDelete)).toEqual(new Set([0]));
    for (const image of album.images) expect(await filesOf(image)).toEqual([false, false, false, false]);
  });

  it("keeps a file that another album also shows", async () => {
    const { draftId } = await draftWith(["a.jpg"]);
    await saveGallery({ userId, draftId, galleryId: null, values: values("Pierwszy") });
    const [shared] = (await getGalleryForEditor("Pierwszy"))!.images;
    const [second] = await (await db()).insert(galleries).values(values("Drugi")).returning({ id: galleries.id });
    await (await db()).insert(galleryImages).values({
      galleryId: second.id,
      position: 0,
      name: "a.jpg",
      imageKey: shared.key,
      width: shared.width,
      height: shared.height,
    });
    const first = (await getGalleryForEditor("Pierwszy"))!;
    await deleteGallery({ title: "Pierwszy" });
    await purgeItem({ kind: "gallery", id: String(first.id) });
    expect(await filesOf(shared)).toEqual([true, true, true, true]);
  });
});

/** How many rows of this album another connection sees (only committed ones). */
async function outsideCount(id: number): Promise<number> {
  const url = process.env.DATABASE_URL!;
  if (!url.startsWith("postgres")) {
    // PGlite has one connection; a query inside the open transaction would wait for ever.
    return (await (await db()).select().from(galleries).where(eq(galleries.id, id))).length;
  }
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`select id from galleries where id = ${id}`;
    return rows.length;
  } finally {
    await sql.end();
  }
}

describe("cleanup of abandoned drafts", () => {
  it("removes drafts untouched for a day and their photos, keeping every file an album or a live draft names", async () => {
    const t0 = new Date();
    vi.spyOn(clock, "now").mockReturnValue(t0);
    // An album whose files are old too.
    const saved = await draftWith(["album.jpg"]);
    await saveGallery({ userId, draftId: saved.draftId, galleryId: null, values: values("Album") });
    const [albumImage] = (await getGalleryForEditor("Album"))!.images;
    // An abandoned new album, and an abandoned edit of the album.
    const abandoned = await draftWith(["porzucone.jpg"]);
    const [abandonedImage] = (await getDraft({ id: abandoned.draftId, userId }))!.images;
    const albumId = (await getGalleryForEditor("Album"))!.id;
    const abandonedEdit = (await createDraft({ userId, galleryId: albumId, values: values("Album") }))!;
    // A file left by an upload that stopped midway (no row names it).
    const orphan = await storeImage(
      await fs.readFile((await photoFile("x.jpg")).path),
      "sierota.jpg",
      "galeria/zostawione",
    );
    // Any folder is swept: an article photo that no article names (a save that failed midway)...
    const strayArticlePhoto = await storeImage(
      await fs.readFile((await photoFile("y.jpg")).path),
      "artykul.jpg",
      "aktualnosci",
    );
    // ...but not one an article shows.
    const article = await storeImage(await fs.readFile((await photoFile("v.jpg")).path), "pokazane.jpg", "aktualnosci");
    await insertArticle({ imageKey: article.key, imageWidth: article.width, imageHeight: article.height });
    // A gallery photo that only an article shows now is still in use.
    const shared = await storeImage(
      await fs.readFile((await photoFile("z.jpg")).path),
      "wspolne.jpg",
      "galeria/wspolne",
    );
    await insertArticle({ imageKey: shared.key, imageWidth: shared.width, imageHeight: shared.height });

    // 20 hours later the pastor starts another album.
    vi.spyOn(clock, "now").mockReturnValue(new Date(t0.getTime() + 20 * HOUR));
    const live = await draftWith(["zywe.jpg"]);
    const [liveImage] = (await getDraft({ id: live.draftId, userId }))!.images;

    // A day and an hour after the start, every file counts as old.
    const now = new Date(t0.getTime() + DRAFT_TTL_MS + HOUR);
    const later = new Date(now.getTime() + HOUR);
    for (const entry of await storage().list("")) {
      await fs.utimes(path.join(process.env.DATA_DIR!, "uploads", entry.key), t0, t0);
    }
    // A dry run lists the same files and changes nothing.
    const dry = await cleanupGalleryDrafts({ now: later, dryRun: true });
    expect(dry).toMatchObject({ skipped: false, drafts: 0, files: 0 });
    expect(dry.orphans.sort()).toEqual([...keysOf(orphan), ...keysOf(strayArticlePhoto)].sort());
    expect(await filesOf(strayArticlePhoto)).toEqual([true, true, true, true]);
    expect(await getDraft({ id: abandoned.draftId, userId })).not.toBeNull();

    const result = await cleanupGalleryDrafts({ now: later });
    expect(result).toMatchObject({ skipped: false, drafts: 2 });
    expect(result.files).toBe(12); // three images: a large JPEG, one WebP, one AVIF and the sharing JPEG each

    expect(await getDraft({ id: abandoned.draftId, userId })).toBeNull();
    expect(await getDraft({ id: abandonedEdit, userId })).toBeNull();
    expect(await getDraft({ id: live.draftId, userId })).not.toBeNull();
    expect(await filesOf(abandonedImage)).toEqual([false, false, false, false]);
    expect(await filesOf(orphan)).toEqual([false, false, false, false]);
    expect(await filesOf(strayArticlePhoto)).toEqual([false, false, false, false]);
    expect(await filesOf(albumImage)).toEqual([true, true, true, true]);
    expect(await filesOf(liveImage)).toEqual([true, true, true, true]);
    expect(await filesOf(article)).toEqual([true, true, true, true]);
    expect(await filesOf(shared)).toEqual([true, true, true, true]);

    // Nothing more to do the second time.
    expect(await cleanupGalleryDrafts({ now: later })).toEqual({ skipped: false, drafts: 0, files: 0, orphans: [] });
  });

  it("never deletes a recent file, even one nothing names yet (an upload in progress)", async () => {
    const fresh = await storeImage(await fs.readFile((await photoFile("x.jpg")).path), "w-trakcie.jpg", "galeria/nowy");
    expect(await cleanupGalleryDrafts()).toMatchObject({ files: 0 });
    expect(await filesOf(fresh)).toEqual([true, true, true, true]);
  });

  it("is started once, runs at once and then every hour, and does not keep the process alive", async () => {
    const abandoned = await draftWith(["a.jpg"]);
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + DRAFT_TTL_MS + HOUR));
    const timers = globalThis as { __galleryCleanup?: NodeJS.Timeout };
    scheduleGalleryCleanup();
    const timer = timers.__galleryCleanup!;
    try {
      await vi.waitFor(async () => expect(await getDraft({ id: abandoned.draftId, userId })).toBeNull());
      expect(timer.hasRef()).toBe(false);
      scheduleGalleryCleanup();
      expect(timers.__galleryCleanup).toBe(timer);
    } finally {
      clearInterval(timer);
      timers.__galleryCleanup = undefined;
    }
  });

  it("maps variants to their image", () => {
    expect(baseKeyOf("galeria/ab/IMG_1-480.webp")).toBe("galeria/ab/IMG_1.jpg");
    expect(baseKeyOf("galeria/ab/IMG_1-480.avif")).toBe("galeria/ab/IMG_1.jpg");
    expect(baseKeyOf("galeria/ab/IMG-480_1.jpg")).toBe("galeria/ab/IMG-480_1.jpg");
    expect(baseKeyOf("galeria/ab/IMG_1-1200.jpeg")).toBe("galeria/ab/IMG_1.jpg");
    expect(baseKeyOf("galeria/ab/notatka.txt")).toBeNull();
  });

  it("runs side by side with itself without harm", async () => {
    const abandoned = await draftWith(["a.jpg"]);
    const later = new Date(Date.now() + DRAFT_TTL_MS + HOUR);
    for (const entry of await storage().list("")) {
      await fs.utimes(path.join(process.env.DATA_DIR!, "uploads", entry.key), new Date(0), new Date(0));
    }
    const results = await Promise.all([cleanupGalleryDrafts({ now: later }), cleanupGalleryDrafts({ now: later })]);
    expect(results.reduce((n, r) => n + r.drafts, 0)).toBe(1);
    expect(await getDraft({ id: abandoned.draftId, userId })).toBeNull();
    expect(await storage().list("galeria/")).toEqual([]);
  });
});
