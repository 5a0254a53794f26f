// Drafts and scheduled publishing: the rule (state, visibility, Warsaw time),
// the public pages, feed and sitemap that must never show a draft or a
// future item, the pastor's preview, and the content key that lets cached
// pages expire when a scheduled item becomes due.
import sharp from "sharp";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createArticle, updateArticle } from "~/features/articles/article-writes.server";
import { getArticle, listArticleCards } from "~/features/articles/articles.server";
import { getGalleryByTitle, listGalleriesForPastor, listGalleryCards } from "~/features/galleries/galleries.server";
import { saveGallery } from "~/features/galleries/save.server";
import { publicationLabel } from "~/features/publishing/publication";
import {
  instantToWallTime,
  nextDueMoment,
  publicationState,
  publishAtFor,
  readPublishChoice,
  wallTimeToInstant,
} from "~/features/publishing/publication.server";
import { rssFeed } from "~/features/seo/feed.server";
import { sitemap } from "~/features/seo/sitemap.server";
import { loader as articleLoader } from "~/routes/aktualnosci.$id";
import { loader as newsLoader } from "~/routes/aktualnosci._index";
import { loader as galleryLoader } from "~/routes/galeria.$slug";
import { loader as galleriesLoader } from "~/routes/galeria._index";
import { loader as articlePreviewLoader } from "~/routes/strefapastora.artykuly.$id_.podglad";
import { loader as galleryPreviewLoader } from "~/routes/strefapastora.galeria.$slug_.podglad";
import { loader as pastorArticlesLoader } from "~/routes/strefapastora.artykuly._index";
import { clock } from "~/services/clock.server";
import { contentKey, forgetContentVersion } from "~/services/content-version.server";
import { db } from "~/services/db.server";
import { events, galleries, users } from "~/services/schema";
import { upcomingDays } from "~/features/events/calendar.server";
import { insertArticle, insertGallery } from "../fixtures";
import { PASTOR, addPastor, signIn } from "../auth-helpers";
import { request, resetDatabase, settle } from "../helpers";

const ORIGIN = "https://zbor.example.org";
const HOUR = 3_600_000;

const jpeg = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: "#abc" } })
    .jpeg()
    .toBuffer();

const args = (path: string, params: Record<string, string> = {}, cookie?: string) => ({
  request: request(path, cookie ? { headers: { Cookie: cookie } } : undefined),
  params,
  context: {},
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the rule", () => {
  const now = new Date("2026-11-24T12:00:00Z");

  it("names the state: no moment is a draft, a future one scheduled, a past one published", () => {
    expect(publicationState(null, now)).toBe("draft");
    expect(publicationState(new Date(now.getTime() + 1000), now)).toBe("scheduled");
    expect(publicationState(now, now)).toBe("published");
    expect(publicationState(new Date(now.getTime() - 1000), now)).toBe("published");
  });

  it("labels states in Polish, a schedule in Warsaw time", () => {
    expect(publicationLabel({ state: "draft", at: null })).toBe("szkic");
    expect(publicationLabel({ state: "published", at: now.toISOString() })).toBe("opublikowany");
    // 17:00 UTC in November is 18:00 in Warsaw (CET).
    expect(publicationLabel({ state: "scheduled", at: "2026-11-24T17:00:00.000Z" })).toBe(
      "zaplanowany na 24.11.2026, 18:00",
    );
  });

  it("reads Warsaw wall time in winter and summer, and across the days the clocks change", () => {
    expect(wallTimeToInstant("2026-11-24T18:00")?.toISOString()).toBe("2026-11-24T17:00:00.000Z");
    expect(wallTimeToInstant("2026-07-01T18:00")?.toISOString()).toBe("2026-07-01T16:00:00.000Z");
    // 29 March 2026: 01:59 is CET, 03:00 CEST; 02:30 does not exist and is read as an hour later.
    expect(wallTimeToInstant("2026-03-29T01:59")?.toISOString()).toBe("2026-03-29T00:59:00.000Z");
    expect(wallTimeToInstant("2026-03-29T03:00")?.toISOString()).toBe("2026-03-29T01:00:00.000Z");
    expect(wallTimeToInstant("2026-03-29T02:30")?.toISOString()).toBe("2026-03-29T01:30:00.000Z");
    // 25 October 2026: 02:30 happens twice; the second (CET) is taken.
    expect(wallTimeToInstant("2026-10-25T02:30")?.toISOString()).toBe("2026-10-25T01:30:00.000Z");
    expect(wallTimeToInstant("2026-10-25T12:00")?.toISOString()).toBe("2026-10-25T11:00:00.000Z");
    expect(wallTimeToInstant("2026-11-24T18:00:30")?.toISOString()).toBe("2026-11-24T17:00:30.000Z");
  });

  it("writes an instant back as the input shows it", () => {
    expect(instantToWallTime(new Date("2026-11-24T17:00:00Z"))).toBe("2026-11-24T18:00");
    expect(instantToWallTime(new Date("2026-07-01T16:00:00Z"))).toBe("2026-07-01T18:00");
    expect(instantToWallTime(new Date("2026-11-24T17:00:30Z"))).toBe("2026-11-24T18:00:30");
  });

  it("refuses what is not a real date and time, with a Polish message", () => {
    for (const bad of [
      "jutro",
      "2026-02-30T10:00",
      "2026-13-01T10:00",
      "2026-11-24T24:00",
      "2026-11-24",
      "0999-01-01T10:00",
    ]) {
      expect(wallTimeToInstant(bad), bad).toBeNull();
      const choice = readPublishChoice("publish", bad);
      expect(choice.ok).toBe(false);
      if (!choice.ok) expect(choice.message).toMatch(/^Podaj poprawną datę i godzinę publikacji/);
    }
  });

  it("saves a draft for 'zapisz jako szkic' whatever the field says; publishes at the typed moment or now", () => {
    expect(readPublishChoice("draft", "nonsense")).toEqual({ ok: true, choice: { kind: "draft" } });
    expect(readPublishChoice("publish", "")).toEqual({ ok: true, choice: { kind: "publish", at: null } });
    const past = new Date(now.getTime() - 24 * HOUR);
    expect(publishAtFor({ kind: "draft" }, past, now)).toBeNull();
    expect(publishAtFor({ kind: "publish", at: null }, null, now)).toEqual(now);
    // An edit of a public item keeps its moment; a scheduled one published without a moment goes out now.
    expect(publishAtFor({ kind: "publish", at: null }, past, now)).toEqual(past);
    expect(publishAtFor({ kind: "publish", at: null }, new Date(now.getTime() + HOUR), now)).toEqual(now);
  });
});

describe("what visitors see", () => {
  beforeEach(async () => {
    await resetDatabase();
    forgetContentVersion();
  });

  async function threeArticles() {
    const now = clock.now().getTime();
    const published = await insertArticle({ header: "Opublikowany", publishAt: new Date(now - HOUR) });
    const draft = await insertArticle({ header: "Szkic", publishAt: null });
    const future = await insertArticle({ header: "Przyszły", publishAt: new Date(now + HOUR) });
    return { published, draft, future };
  }

  it("lists, pages, feeds and maps only published articles; the pastor's list has all three", async () => {
    const { published, draft, future } = await threeArticles();
    const news = await (await settle(() => newsLoader(args("/aktualnosci")))).json();
    expect(news.articles.map((a: { header: string }) => a.header)).toEqual(["Opublikowany"]);
    expect((await listArticleCards()).map((a) => a.id)).toEqual([published.id]);

    expect((await settle(() => articleLoader(args(`/aktualnosci/${published.id}`, { id: published.id })))).status).toBe(
      200,
    );
    for (const hidden of [draft, future]) {
      const res = await settle(() => articleLoader(args(`/aktualnosci/${hidden.id}`, { id: hidden.id })));
      expect(res.status).toBe(404);
      expect((await res.json()).article).toBeNull();
    }

    const feed = await rssFeed(ORIGIN);
    const map = await sitemap(ORIGIN);
    expect(feed).toContain(`/aktualnosci/${published.id}`);
    expect(map).toContain(`/aktualnosci/${published.id}`);
    for (const hidden of [draft, future]) {
      expect(feed).not.toContain(hidden.id);
      expect(map).not.toContain(hidden.id);
    }
    expect(feed).not.toContain("Szkic");
    expect(feed).not.toContain("Przyszły");

    const all = await listArticleCards({ withUnpublished: true });
    expect(all.map((a) => a.publication.state).sort()).toEqual(["draft", "published", "scheduled"]);
  });

  it("shows a scheduled article once its moment has passed, with no write in between", async () => {
    const { future } = await threeArticles();
    expect(await getArticle(future.id)).toBeNull();
    const later = new Date(clock.now().getTime() + HOUR + 1000);
    vi.spyOn(clock, "now").mockReturnValue(later);
    expect((await getArticle(future.id))?.header).toBe("Przyszły");
    expect(await rssFeed(ORIGIN)).toContain(`/aktualnosci/${future.id}`);
    expect(await sitemap(ORIGIN)).toContain(`/aktualnosci/${future.id}`);
  });

  it("keeps draft and future albums off the list, their pages and the sitemap", async () => {
    const now = clock.now().getTime();
    await insertGallery({ title: "Widoczna", publishAt: new Date(now - HOUR) });
    await insertGallery({ title: "Szkic albumu", publishAt: null });
    await insertGallery({ title: "Jutrzejsza", publishAt: new Date(now + HOUR) });
    const list = await (await settle(() => galleriesLoader())).json();
    expect(list.galleries.map((g: { title: string }) => g.title)).toEqual(["Widoczna"]);
    expect((await listGalleryCards()).map((g) => g.title)).toEqual(["Widoczna"]);
    for (const title of ["Szkic albumu", "Jutrzejsza"]) {
      const path = `/galeria/${encodeURIComponent(title)}`;
      // As for an album that does not exist: back to the list.
      const res = await settle(() => galleryLoader(args(path)));
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/galeria");
      expect(await getGalleryByTitle(title)).toBeNull();
      expect((await getGalleryByTitle(title, { withUnpublished: true }))?.title).toBe(title);
    }
    const map = await sitemap(ORIGIN);
    expect(map).toContain(encodeURIComponent("Widoczna"));
    expect(map).not.toContain(encodeURIComponent("Szkic albumu"));
    expect(map).not.toContain(encodeURIComponent("Jutrzejsza"));
    const states = Object.fromEntries((await listGalleriesForPastor()).map((g) => [g.title, g.publication.state]));
    expect(states).toEqual({ Widoczna: "published", "Szkic albumu": "draft", Jutrzejsza: "scheduled" });
  });

  it("keeps rows written without a moment (seed, import) published", async () => {
    const row = await insertArticle({ header: "Z importu" });
    expect((await getArticle(row.id))?.publication.state).toBe("published");
  });
});

describe("saving", () => {
  beforeEach(async () => {
    await resetDatabase();
    forgetContentVersion();
  });

  it("saves an article as a draft, schedules it, publishes it, and takes it back as a draft", async () => {
    const draft = await createArticle({
      header: "Nowy",
      text: "Treść",
      date: "2026-11-24",
      image: { input: await jpeg(), name: "a.jpg" },
      intent: "draft",
      publishAt: "",
    });
    expect(draft).toMatchObject({ ok: true, publication: { state: "draft", at: null } });
    if (!draft.ok) return;
    expect(await getArticle(draft.id)).toBeNull();

    const bad = await updateArticle({ id: draft.id, header: "Nowy", text: "Treść", publishAt: "2026-02-30T10:00" });
    expect(bad).toMatchObject({ ok: false, status: 400, fields: ["publishAt"] });

    const soon = instantToWallTime(new Date(clock.now().getTime() + 2 * HOUR));
    const scheduled = await updateArticle({ id: draft.id, header: "Nowy", text: "Treść", publishAt: soon });
    expect(scheduled).toMatchObject({ ok: true, publication: { state: "scheduled" } });
    expect(await getArticle(draft.id)).toBeNull();

    const now = await updateArticle({ id: draft.id, header: "Nowy", text: "Treść", intent: "publish", publishAt: "" });
    expect(now).toMatchObject({ ok: true, publication: { state: "published" } });
    expect((await getArticle(draft.id))?.header).toBe("Nowy");

    const back = await updateArticle({ id: draft.id, header: "Nowy", text: "Treść", intent: "draft" });
    expect(back).toMatchObject({ ok: true, publication: { state: "draft" } });
    expect(await getArticle(draft.id)).toBeNull();
  });

  it("saves an album as a draft and publishes it later", async () => {
    await addPastor();
    const [user] = await (await db()).select({ id: users.id }).from(users);
    const values = { title: "Obóz", description: "", date: "2026-07-01", publishAt: "" };
    const saved = await saveGallery({ userId: user.id, draftId: null, galleryId: null, values, intent: "draft" });
    expect(saved).toMatchObject({ ok: true, publication: { state: "draft" } });
    expect(await getGalleryByTitle("Obóz")).toBeNull();
    const bad = await saveGallery({
      userId: user.id,
      draftId: null,
      galleryId: null,
      values: { ...values, title: "Inny", publishAt: "31.12.2026" },
    });
    expect(bad).toMatchObject({ ok: false, fieldErrors: { publishAt: expect.stringMatching(/^Podaj poprawną/) } });
    expect((await listGalleriesForPastor()).map((g) => g.title)).toEqual(["Obóz"]);
    const [{ id: galleryId }] = await (await db()).select({ id: galleries.id }).from(galleries);
    const published = await saveGallery({ userId: user.id, draftId: null, galleryId, values });
    expect(published).toMatchObject({ ok: true, publication: { state: "published" } });
    expect((await getGalleryByTitle("Obóz"))?.title).toBe("Obóz");
  });
});

describe("the pastor's preview", () => {
  let session: string;
  beforeAll(async () => {
    await resetDatabase();
    await addPastor();
    session = await signIn(PASTOR);
  });

  it("shows a draft article and album to the signed-in pastor, never to a visitor", async () => {
    const article = await insertArticle({ header: "Tylko podgląd", publishAt: null });
    await insertGallery({ title: "Album w szkicu", publishAt: null });
    const path = `/strefapastora/artykuly/${article.id}/podglad`;
    const res = await settle(() => articlePreviewLoader(args(path, { id: article.id }, session)));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.article.header).toBe("Tylko podgląd");
    expect(body.article.publication.state).toBe("draft");

    const albumPath = `/strefapastora/galeria/${encodeURIComponent("Album w szkicu")}/podglad`;
    const album = await settle(() => galleryPreviewLoader(args(albumPath, {}, session)));
    expect(album.status).toBe(200);
    expect((await album.json()).gallery.title).toBe("Album w szkicu");

    const anonymous = await settle(() => articlePreviewLoader(args(path, { id: article.id })));
    expect(anonymous.status).toBe(302);
    // Sent home, as every pastor page does without a session.
    expect(anonymous.headers.get("Location")).toBe("/");

    // Signed in or not, the public page answers as for a missing article.
    const pub = await settle(() => articleLoader(args(`/aktualnosci/${article.id}`, { id: article.id }, session)));
    expect(pub.status).toBe(404);

    const list = await (await settle(() => pastorArticlesLoader(args("/strefapastora/artykuly", {}, session)))).json();
    expect(list.articles.find((a: { id: string }) => a.id === article.id)?.publication.state).toBe("draft");
  });
});

describe("the content key", () => {
  beforeEach(async () => {
    await resetDatabase();
    forgetContentVersion();
  });

  it("names the next due moment and moves on by itself once it has passed", async () => {
    const start = clock.now();
    const due = new Date(start.getTime() + HOUR);
    await insertArticle({ header: "Później", publishAt: due });
    await insertGallery({ title: "Jeszcze później", publishAt: new Date(start.getTime() + 2 * HOUR) });
    expect((await nextDueMoment())?.toISOString()).toBe(due.toISOString());
    forgetContentVersion();
    const before = await contentKey();
    expect(before).toContain(String(due.getTime()));
    // Still before the moment (and within the check interval): the same key.
    expect(await contentKey()).toBe(before);
    vi.spyOn(clock, "now").mockReturnValue(new Date(due.getTime() + 1));
    const after = await contentKey();
    expect(after).not.toBe(before);
    expect(after).toContain(String(start.getTime() + 2 * HOUR));
  });

  it("with an event published, pages are made again after the next Warsaw midnight, when the calendar moves on a day", async () => {
    await (await db()).insert(events).values({
      title: "Modlitwa poranna",
      startDate: "2026-01-01",
      startTime: "07:00",
      repeat: "weekly",
      weekdays: ["MO", "TU", "WE", "TH", "FR", "SA", "SU"],
      publishAt: new Date("2025-12-01T00:00:00Z"),
    });
    // Midnight in Warsaw is 23:00 UTC in winter and 22:00 UTC in summer.
    for (const [evening, midnight, today, tomorrow] of [
      ["2027-01-05T22:59:00Z", "2027-01-05T23:00:00.000Z", "2027-01-05", "2027-01-06"],
      ["2026-07-01T21:59:00Z", "2026-07-01T22:00:00.000Z", "2026-07-01", "2026-07-02"],
    ]) {
      vi.spyOn(clock, "now").mockReturnValue(new Date(evening));
      forgetContentVersion();
      expect((await nextDueMoment())?.toISOString()).toBe(midnight);
      const before = await contentKey();
      expect((await upcomingDays())[0].date).toBe(today);
      vi.spyOn(clock, "now").mockReturnValue(new Date(midnight));
      expect(await contentKey()).not.toBe(before);
      expect((await upcomingDays())[0].date).toBe(tomorrow);
    }
  });
});
