// The bin on a real database and real disk storage: a deleted article or
// album leaves every public list, feed and sitemap at once, keeps its photos,
// comes back exactly as it was (an album under another title when its own is
// taken), and is purged with its files after 30 days or on demand.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { clock } from "~/services/clock.server";
import { articles, galleries, galleryImages } from "~/services/schema";
import { db } from "~/services/db.server";
import { type StoredImage, storeImage } from "~/services/images.server";
import { allKeys } from "~/lib/image-variants";
import { storage } from "~/services/storage.server";
import { createArticle, deleteArticle, updateArticle } from "~/features/articles/article-writes.server";
import { getArticle, listArticleCards } from "~/features/articles/articles.server";
import {
  deleteGallery,
  getGalleryByTitle,
  getGalleryForEditor,
  listGalleriesForPastor,
  listGalleryCards,
} from "~/features/galleries/galleries.server";
import { createDraft, getDraft } from "~/features/galleries/drafts.server";
import { isTitleTaken, saveGallery } from "~/features/galleries/save.server";
import { cleanupGalleryDrafts } from "~/features/galleries/cleanup.server";
import { rssFeed } from "~/features/seo/feed.server";
import { sitemap } from "~/features/seo/sitemap.server";
import {
  BIN_KEEP_MS,
  listBin,
  purgeExpired,
  purgeItem,
  restoreArticle,
  restoreGallery,
} from "~/features/bin/bin.server";
import { createUser } from "~/features/auth/users.server";
import { resetDatabase } from "../helpers";

const DAY = 24 * 60 * 60 * 1000;
const ORIGIN = "https://zbor.example.org";
let tmp: string;
let pastor: { id: number; email: string };

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-bin-"));
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});
beforeEach(async () => {
  vi.restoreAllMocks();
  await resetDatabase();
  await fs.rm(path.join(process.env.DATA_DIR!, "uploads"), { recursive: true, force: true });
  pastor = await createUser({ email: "pastor@example.org", password: "haslo-testowe-123" });
});

let n = 0;
async function photo(name = "zdjecie.jpg") {
  const file = path.join(tmp, `upload-${++n}`);
  await sharp({ create: { width: 64, height: 48, channels: 3, background: `hsl(${n * 40},60%,50%)` } })
    .jpeg()
    .toFile(file);
  return { input: file, name };
}

async function newArticle(header = "Dzień dziecka") {
  const created = await createArticle(
    { header, text: "Zapraszamy.", date: "2026-06-01", image: await photo() },
    { actor: pastor },
  );
  if (!created.ok) throw new Error(created.message);
  return created.id;
}

/** An album with one stored photo, saved as the editor saves it. */
async function newAlbum(title: string): Promise<{ id: number; image: StoredImage }> {
  const image = await storeImage((await photo()).input, "a.jpg", `galeria/${title.length}-${++n}`);
  const d = await db();
  const [g] = await d
    .insert(galleries)
    .values({ title, description: "Opis", date: "2026-05-01", publishAt: clock.now() })
    .returning({ id: galleries.id });
  await d
    .insert(galleryImages)
    .values({ galleryId: g.id, position: 0, name: "a.jpg", imageKey: image.key, ...dims(image) });
  return { id: g.id, image };
}
const dims = (i: StoredImage) => ({ width: i.width, height: i.height });

async function filesExist(image: StoredImage) {
  return Promise.all(allKeys(image.key, image.width).map((k) => storage().exists(k)));
}

describe("deleting moves to the bin", () => {
  it("hides an article from every public list, page, feed and sitemap at once, keeping its photo", async () => {
    const id = await newArticle();
    const before = (await getArticle(id))!;
    expect((await deleteArticle({ id }, { actor: pastor })).ok).toBe(true);

    expect(await getArticle(id)).toBeNull();
    expect(await listArticleCards()).toEqual([]);
    expect(await rssFeed(ORIGIN)).not.toContain(id);
    expect(await sitemap(ORIGIN)).not.toContain(id);
    // A binned article cannot be edited or deleted again.
    expect(await updateArticle({ id, header: "x", text: "y", date: "" })).toMatchObject({ ok: false, status: 404 });
    expect(await deleteArticle({ id })).toMatchObject({ ok: false, status: 404 });

    const [row] = await (await db()).select().from(articles);
    expect(await filesExist({ key: row.imageKey!, width: row.imageWidth!, height: row.imageHeight! })).not.toContain(
      false,
    );
    expect(await listBin()).toEqual([
      expect.objectContaining({ kind: "article", id, title: before.header, deletedBy: pastor.email, daysLeft: 30 }),
    ]);
  });

  it("hides an album from the public and pastor lists and the editor, keeps its photos, ends its edit drafts", async () => {
    const { id, image } = await newAlbum("Piknik");
    const draft = (await createDraft({
      userId: pastor.id,
      galleryId: id,
      values: { title: "Piknik", description: "", date: "2026-05-01" },
    }))!;
    expect(await deleteGallery({ title: "Piknik" }, undefined, { actor: pastor })).toBe(true);

    expect(await getGalleryByTitle("Piknik")).toBeNull();
    expect(await listGalleryCards()).toEqual([]);
    expect(await listGalleriesForPastor()).toEqual([]);
    expect(await getGalleryForEditor("Piknik")).toBeNull();
    expect(await getDraft({ id: draft, userId: pastor.id })).toBeNull();
    expect(await sitemap(ORIGIN)).not.toContain("Piknik");
    expect(
      await createDraft({ userId: pastor.id, galleryId: id, values: { title: "", description: "", date: "" } }),
    ).toBe(null);
    expect(
      await saveGallery({
        userId: pastor.id,
        draftId: null,
        galleryId: id,
        values: { title: "Piknik", description: "", date: "2026-05-01" },
      }),
    ).toEqual({ ok: false, gone: "gallery" });
    expect(await filesExist(image)).toEqual([true, true, true, true]);
    expect((await listBin()).map((i) => [i.kind, i.title])).toEqual([["gallery", "Piknik"]]);
  });

  it("keeps binned photos through the sweep of files nothing names", async () => {
    const articleId = await newArticle();
    const { image } = await newAlbum("Zostaje");
    await deleteArticle({ id: articleId });
    await deleteGallery({ title: "Zostaje" });
    const [row] = await (await db()).select().from(articles);
    await cleanupGalleryDrafts({ orphanMinAgeMs: 0, now: new Date(Date.now() + 60_000) });
    expect(await filesExist(image)).toEqual([true, true, true, true]);
    expect(await filesExist({ key: row.imageKey!, width: row.imageWidth!, height: 0 })).not.toContain(false);
  });

  it("lists the latest deletion first", async () => {
    const start = Date.now();
    const a = await newArticle("Pierwszy");
    await newAlbum("Drugi");
    vi.spyOn(clock, "now").mockReturnValue(new Date(start));
    await deleteArticle({ id: a });
    vi.spyOn(clock, "now").mockReturnValue(new Date(start + 60_000));
    await deleteGallery({ title: "Drugi" });
    vi.restoreAllMocks();
    expect((await listBin()).map((i) => i.title)).toEqual(["Drugi", "Pierwszy"]);
  });
});

describe("restoring", () => {
  it("brings an article back with the same id, text and photo", async () => {
    const id = await newArticle();
    const before = await getArticle(id);
    await deleteArticle({ id });
    expect(await restoreArticle({ id, actor: pastor })).toEqual({ ok: true, title: "Dzień dziecka" });
    expect(await getArticle(id)).toEqual(before);
    expect(await listBin()).toEqual([]);
    expect(await restoreArticle({ id })).toEqual({ ok: false, reason: "gone" });
  });

  it("brings an album back under its title, with its photos", async () => {
    const { id } = await newAlbum("Obóz");
    const before = await getGalleryByTitle("Obóz");
    await deleteGallery({ title: "Obóz" });
    expect(await restoreGallery({ id: String(id) })).toEqual({ ok: true, title: "Obóz" });
    expect(await getGalleryByTitle("Obóz")).toEqual(before);
  });

  it("lets a new album take a binned album's title, then asks for another title to restore the old one", async () => {
    const old = await newAlbum("Wigilia");
    await deleteGallery({ title: "Wigilia" });
    expect(await isTitleTaken("Wigilia")).toBe(false);
    const fresh = await newAlbum("Wigilia");

    expect(await restoreGallery({ id: String(old.id) })).toEqual({ ok: false, reason: "titleTaken", title: "Wigilia" });
    expect(await restoreGallery({ id: String(old.id), newTitle: "Wigilia" })).toMatchObject({ reason: "titleTaken" });
    expect(await restoreGallery({ id: String(old.id), newTitle: "   " })).toEqual({
      ok: false,
      reason: "titleTaken",
      title: "",
      error: "Podaj tytuł galerii.",
    });
    expect(await restoreGallery({ id: String(old.id), newTitle: " Wigilia 2025 " })).toEqual({
      ok: true,
      title: "Wigilia 2025",
    });
    expect((await getGalleryForEditor("Wigilia 2025"))!.images.map((i) => i.key)).toEqual([old.image.key]);
    expect((await getGalleryForEditor("Wigilia"))!.images.map((i) => i.key)).toEqual([fresh.image.key]);
  });
});

describe("purging", () => {
  it("removes items 30 days old with their files, keeping younger ones and files another row uses", async () => {
    const start = Date.now();
    const oldArticle = await newArticle("Stary");
    const young = await newArticle("Młody");
    const { image } = await newAlbum("Stary album");
    const shared = await newAlbum("Wspólne zdjęcie");
    // A live album shows the same file as the binned one.
    const [{ id: liveId }] = await (
      await db()
    )
      .insert(galleries)
      .values({ title: "Żywy", date: "2026-01-01", publishAt: clock.now() })
      .returning({ id: galleries.id });
    await (
      await db()
    )
      .insert(galleryImages)
      .values({ galleryId: liveId, position: 0, name: "x.jpg", imageKey: shared.image.key, ...dims(shared.image) });
    const [oldRow] = await (await db()).select().from(articles).where(eq(articles.id, oldArticle));

    vi.spyOn(clock, "now").mockReturnValue(new Date(start));
    await deleteArticle({ id: oldArticle });
    await deleteGallery({ title: "Stary album" });
    await deleteGallery({ title: "Wspólne zdjęcie" });
    vi.spyOn(clock, "now").mockReturnValue(new Date(start + 20 * DAY));
    await deleteArticle({ id: young });
    vi.restoreAllMocks();

    expect(await purgeExpired({ now: new Date(start + BIN_KEEP_MS - 60_000) })).toBe(0);
    expect(await purgeExpired({ now: new Date(start + BIN_KEEP_MS + 60_000) })).toBe(3);

    expect((await listBin()).map((i) => i.title)).toEqual(["Młody"]);
    expect(await filesExist(image)).toEqual([false, false, false, false]);
    expect(
      await filesExist({ key: oldRow.imageKey!, width: oldRow.imageWidth!, height: oldRow.imageHeight! }),
    ).not.toContain(true);
    expect(await filesExist(shared.image)).toEqual([true, true, true, true]);
    expect((await (await db()).select().from(galleries)).map((g) => g.title)).toEqual(["Żywy"]);
  });

  it("removes one item at once on 'usuń na zawsze', and only what is in the bin", async () => {
    const live = await newArticle("Żywy");
    const { id, image } = await newAlbum("Na zawsze");
    expect(await purgeItem({ kind: "article", id: live })).toBe(false);
    expect(await purgeItem({ kind: "gallery", id: String(id) })).toBe(false);
    await deleteGallery({ title: "Na zawsze" });
    expect(await purgeItem({ kind: "gallery", id: String(id), actor: pastor })).toBe(true);
    expect(await filesExist(image)).toEqual([false, false, false, false]);
    expect(await listBin()).toEqual([]);
    expect(await getArticle(live)).not.toBeNull();
  });
});
