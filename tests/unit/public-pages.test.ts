import { beforeEach, describe, expect, it } from "vitest";
import { loader as articleLoader } from "~/routes/aktualnosci.$id";
import { loader as newsLoader } from "~/routes/aktualnosci._index";
import { loader as galleryLoader } from "~/routes/galeria.$slug";
import { loader as galleriesLoader } from "~/routes/galeria._index";
import { loader as healthLoader } from "~/routes/healthz";
import { loader as homeLoader } from "~/routes/_index";
import { action as acceptAction } from "~/routes/akceptuje";
import { loader as aboutLoader } from "~/routes/onas._index";
import { loader as testimonyLoader } from "~/routes/onas.swiadectwa.$id";
import { loader as splatLoader } from "~/routes/$";
import { eq } from "drizzle-orm";
import { seedChurchContent } from "~/features/church/about.server";
import { db } from "~/services/db.server";
import { testimonies } from "~/services/schema";
import { insertArticle, insertGallery, insertHistoryPhoto } from "../fixtures";
import { request, resetDatabase, settle } from "../helpers";

const args = (path: string, params: Record<string, string> = {}) => ({
  request: request(path),
  params,
  context: {},
});

beforeEach(resetDatabase);

describe("/aktualnosci", () => {
  it("lists articles newest first, legacy comma dates included", async () => {
    await insertArticle({ header: "Stary", date: "2020-05-01" });
    await insertArticle({ header: "Nowy", date: "2025-06-08" });
    await insertArticle({ header: "Środkowy", date: "2023-01-01, niedziela" });
    const res = await settle(() => newsLoader(args("/aktualnosci")));
    const { articles } = await res.json();
    expect(articles.map((a: { header: string }) => a.header)).toEqual(["Nowy", "Środkowy", "Stary"]);
  });

  it("sends an excerpt, never the whole body, and image variants", async () => {
    await insertArticle({ text: "ż".repeat(5000) });
    const { articles } = await (await settle(() => newsLoader(args("/aktualnosci")))).json();
    expect(articles[0].excerpt.length).toBeLessThanOrEqual(181);
    expect(articles[0].text).toBeUndefined();
    expect(articles[0].image.srcSet).toContain("-480.webp 480w");
  });

  it("shows 20 cards a page, with links to older and newer ones", async () => {
    for (let i = 0; i < 45; i++) {
      await insertArticle({ header: `Wiadomość ${i}`, date: `2024-01-${String((i % 28) + 1).padStart(2, "0")}` });
    }
    const first = await (await settle(() => newsLoader(args("/aktualnosci")))).json();
    expect(first).toMatchObject({ page: 1, hasOlder: true });
    expect(first.articles).toHaveLength(20);
    const third = await (await settle(() => newsLoader(args("/aktualnosci?strona=3")))).json();
    expect(third).toMatchObject({ page: 3, hasOlder: false });
    expect(third.articles).toHaveLength(5);
    // Together the pages hold every article once.
    const second = await (await settle(() => newsLoader(args("/aktualnosci?strona=2")))).json();
    const ids = [...first.articles, ...second.articles, ...third.articles].map((a: { id: string }) => a.id);
    expect(new Set(ids).size).toBe(45);
    for (const [query, location] of [
      ["?strona=4", "/aktualnosci"],
      ["?strona=abc", "/aktualnosci"],
      ["?strona=02", "/aktualnosci?strona=2"],
      ["?strona=-1", "/aktualnosci"],
    ]) {
      const res = await settle(() => newsLoader(args(`/aktualnosci${query}`)));
      expect(res.status, query).toBe(302);
      expect(res.headers.get("Location"), query).toBe(location);
    }
  });

  it("is empty when there are no articles", async () => {
    const { articles } = await (await settle(() => newsLoader(args("/aktualnosci")))).json();
    expect(articles).toEqual([]);
  });
});

describe("/aktualnosci/:id", () => {
  it("returns the article", async () => {
    const a = await insertArticle({ header: "Chrzest", text: "Treść https://example.org" });
    const res = await settle(() => articleLoader(args(`/aktualnosci/${a.id}`, { id: a.id })));
    expect(res.status).toBe(200);
    const { article } = await res.json();
    expect(article).toMatchObject({ header: "Chrzest", text: "Treść https://example.org" });
  });

  it.each(["1234", "%E0%A4%A", "../etc/passwd", "x".repeat(5000), "'; drop table articles; --"])(
    "answers 404 for %s",
    async (id) => {
      const res = await settle(() => articleLoader(args("/aktualnosci/x", { id })));
      expect(res.status).toBe(404);
      expect((await res.json()).article).toBeNull();
    },
  );
});

describe("/galeria", () => {
  it("lists albums newest first with the first image as cover, or none", async () => {
    await insertGallery({ title: "Starsza", date: "2024-01-01" }, [
      { name: "1.jpg", key: "galeria/pierwsze.jpg" },
      { name: "2.jpg", key: "galeria/drugie.jpg" },
    ]);
    await insertGallery({ title: "Pusta", date: "2025-01-01" });
    const { galleries } = await (await settle(() => galleriesLoader())).json();
    expect(galleries.map((g: { title: string }) => g.title)).toEqual(["Pusta", "Starsza"]);
    expect(galleries[0].cover).toBeNull();
    expect(galleries[1].cover.full).toBe("/pliki/galeria/pierwsze.jpg");
  });

  it("finds an album by its encoded title, whatever characters it holds", async () => {
    const title = "Obóz / 2025? #1 & 100% +";
    await insertGallery({ title }, [
      { name: "b.jpg", key: "galeria/b.jpg" },
      { name: "a.jpg", key: "galeria/a.jpg" },
    ]);
    const path = `/galeria/${encodeURIComponent(title)}`;
    const res = await settle(() => galleryLoader(args(path)));
    expect(res.status).toBe(200);
    const { gallery } = await res.json();
    expect(gallery.title).toBe(title);
    expect(gallery.images.map((i: { name: string }) => i.name)).toEqual(["b.jpg", "a.jpg"]);
  });

  it.each(["/galeria/Nieznana", "/galeria/%E0%A4%A", `/galeria/${"x".repeat(5000)}`, "/galeria/..%2F..%2Fetc"])(
    "redirects %s to /galeria",
    async (path) => {
      const res = await settle(() => galleryLoader(args(path)));
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/galeria");
    },
  );
});

describe("/onas", () => {
  it("shows history photos from the database in order", async () => {
    await insertHistoryPhoto("drugie", "historia/2.jpg", 2);
    await insertHistoryPhoto("pierwsze", "historia/1.jpg", 1);
    const { photos } = await (await settle(() => aboutLoader())).json();
    expect(photos.map((p: { name: string }) => p.name)).toEqual(["pierwsze", "drugie"]);
  });

  it("shows testimonies 1–5 and redirects anything else (unknown or hidden) to /onas", async () => {
    await seedChurchContent(await db());
    await (await db()).update(testimonies).set({ hidden: true }).where(eq(testimonies.id, 3));
    const { testimonies: shown } = await (await settle(() => aboutLoader())).json();
    expect(shown.map((t: { id: number }) => t.id)).toEqual([1, 2, 4, 5]);
    for (const id of ["1", "5"]) {
      const res = await settle(async () => testimonyLoader(args(`/onas/swiadectwa/${id}`, { id })));
      expect(res.status).toBe(200);
    }
    for (const id of ["0", "3", "6", "abc", "1.0", "%E0%A4%A", "x".repeat(5000)]) {
      const res = await settle(async () => testimonyLoader(args("/onas/swiadectwa/x", { id })));
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/onas");
    }
  });
});

describe("cookie notice", () => {
  it("is shown until 'Akceptuję' is posted, which lasts for the browser session", async () => {
    expect(await (await settle(() => homeLoader(args("/")))).json()).toMatchObject({ showCookieNotice: true });
    const res = await settle(() => acceptAction());
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    const cookie = res.headers.get("Set-Cookie")!;
    expect(cookie).toMatch(/^acceptPolicy=/);
    expect(cookie).not.toMatch(/Expires|Max-Age/i);
    const home = await settle(() =>
      homeLoader({ ...args("/"), request: request("/", { headers: { Cookie: cookie.split(";")[0] } }) }),
    );
    expect(await home.json()).toMatchObject({ showCookieNotice: false });
  });
});

it("redirects unknown paths home", async () => {
  const res = await settle(() => splatLoader());
  expect(res.headers.get("Location")).toBe("/");
});

it("/healthz answers ok while the process runs", async () => {
  const res = await settle(() => healthLoader());
  expect(res.status).toBe(200);
  expect(await res.text()).toBe("ok");
});
