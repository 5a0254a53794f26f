// The news feed, sitemap and robots.txt, checked with a maintained XML
// parser against a real database.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { beforeEach, describe, expect, it } from "vitest";
import { RSS_LIMIT, rssFeed } from "~/features/seo/feed.server";
import { sitemap } from "~/features/seo/sitemap.server";
import { robotsTxt } from "~/features/seo/robots.server";
import { publishedAt } from "~/features/seo/seo";
import { loader as rssLoader } from "~/routes/aktualnosci.rss[.]xml";
import { loader as robotsLoader } from "~/routes/robots[.]txt";
import { loader as sitemapLoader } from "~/routes/sitemap[.]xml";
import { insertArticle, insertGallery } from "../fixtures";
import { request, resetDatabase, settle } from "../helpers";

const ORIGIN = "https://zbor.example.org";
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseTagValue: false,
  isArray: (name) => ["item", "url"].includes(name),
});

function parse(xml: string) {
  expect(XMLValidator.validate(xml)).toBe(true);
  return parser.parse(xml);
}

const args = (path: string, init?: RequestInit) => ({ request: request(path, init), params: {}, context: {} });

beforeEach(resetDatabase);

describe("RSS of the news", () => {
  it("describes the channel and links to itself", async () => {
    await insertArticle({ header: "Jedyny", date: "2025-03-02" });
    const { rss } = parse(await rssFeed(ORIGIN));
    expect(rss["@version"]).toBe("2.0");
    const channel = rss.channel;
    expect(channel.title).toBe("Aktualności – Kościół Zielonoświątkowy w Wieliczce");
    expect(channel.link).toBe(`${ORIGIN}/aktualnosci`);
    expect(channel.description).toMatch(/nabożeństwa/);
    expect(channel.language).toBe("pl");
    expect(channel["atom:link"]).toMatchObject({
      "@href": `${ORIGIN}/aktualnosci/rss.xml`,
      "@rel": "self",
      "@type": "application/rss+xml",
    });
    expect(rss["@xmlns:atom"]).toBe("http://www.w3.org/2005/Atom");
  });

  it("holds the newest 50 of more articles, newest first, each with a permanent link", async () => {
    const inserted = [];
    for (let i = 0; i < 55; i++) {
      const day = String((i % 28) + 1).padStart(2, "0");
      inserted.push(await insertArticle({ header: `Wiadomość ${i}`, date: `2024-${i < 28 ? "01" : "02"}-${day}` }));
    }
    const { rss } = parse(await rssFeed(ORIGIN));
    const items = rss.channel.item;
    expect(items).toHaveLength(RSS_LIMIT);
    const expected = [...inserted]
      .sort((a, b) => b.date.localeCompare(a.date) || b.id.localeCompare(a.id))
      .slice(0, RSS_LIMIT);
    expect(items.map((i: { title: string }) => i.title)).toEqual(expected.map((a) => a.header));
    const dates = items.map((i: { pubDate: string }) => Date.parse(i.pubDate));
    expect(dates.every((d: number) => !Number.isNaN(d))).toBe(true);
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    for (const [n, item] of items.entries()) {
      const url = `${ORIGIN}/aktualnosci/${expected[n].id}`;
      expect(item.link).toBe(url);
      expect(item.guid).toEqual({ "#text": url, "@isPermaLink": "true" });
      // RFC 822 as RSS 2.0 asks: "Sun, 12 Jan 2024 11:00:00 GMT".
      expect(item.pubDate).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    }
  });

  it("keeps hostile text as text: ]]>, &, < and stray control characters", async () => {
    const header = "Zbiórka ]]> <b>& \"darów\"</b> 'dziś'";
    const text = "Przynieś <script>alert(1)</script> ]]&gt; & ]]> coś\u0001 do jedzenia.";
    await insertArticle({ header, text, date: "2025-05-05" });
    const xml = await rssFeed(ORIGIN);
    expect(xml).not.toContain("<script>");
    expect(xml).not.toContain("<b>");
    const [item] = parse(xml).rss.channel.item;
    // The parser decodes the entities back: the reader sees exactly what the pastor wrote.
    const decoded = new XMLParser({ processEntities: true, htmlEntities: false, isArray: (n) => n === "item" }).parse(
      xml,
    ).rss.channel.item[0];
    expect(decoded.title).toBe(header);
    expect(decoded.description).toBe("Przynieś <script>alert(1)</script> ]]&gt; & ]]> coś do jedzenia.");
    expect(item.link).toMatch(/^https:\/\/zbor\.example\.org\/aktualnosci\/\d+$/);
  });

  it("gives the description as a plain excerpt and the sharing image", async () => {
    await insertArticle({
      text: `${"słowo ".repeat(100)}koniec`,
      imageKey: "aktualnosci/x.jpg",
      imageWidth: 2000,
      imageHeight: 1000,
    });
    const [item] = parse(await rssFeed(ORIGIN)).rss.channel.item;
    expect(item.description.length).toBeLessThanOrEqual(181);
    expect(item.description).toMatch(/^słowo słowo .*…$/);
    expect(item["media:content"]).toMatchObject({
      "@url": `${ORIGIN}/pliki/aktualnosci/x-1200.jpeg`,
      "@type": "image/jpeg",
      "@width": "1200",
      "@height": "600",
    });
  });

  it("dates an article by its date, at its creation time when made that day", () => {
    // 2024-06-10 09:30 Warsaw (UTC+2) = 07:30 UTC.
    const made = String(Date.UTC(2024, 5, 10, 7, 30));
    expect(publishedAt({ id: made, date: "2024-06-10" })?.toISOString()).toBe("2024-06-10T07:30:00.000Z");
    // Another day: noon in Warsaw, summer and winter time.
    expect(publishedAt({ id: made, date: "2024-06-01" })?.toISOString()).toBe("2024-06-01T10:00:00.000Z");
    expect(publishedAt({ id: made, date: "2023-12-24" })?.toISOString()).toBe("2023-12-24T11:00:00.000Z");
    // A legacy free-text date: the creation time in the id.
    expect(publishedAt({ id: made, date: "12 września 2020, sobota" })?.toISOString()).toBe("2024-06-10T07:30:00.000Z");
    // Neither: unknown, and the feed leaves pubDate out.
    expect(publishedAt({ id: "abc", date: "dawno temu" })).toBeNull();
  });

  it("answers with the feed type, public caching and a 304 for an unchanged copy", async () => {
    await insertArticle({ header: "Raz" });
    const res = await settle(() => rssLoader(args("/aktualnosci/rss.xml")));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/rss+xml; charset=utf-8");
    expect(res.headers.get("Cache-Control")).toBe(
      // Without PUBLIC_URL the feed prints the request's host: no shared cache keeps it.
      "private, max-age=0, must-revalidate",
    );
    const etag = res.headers.get("ETag")!;
    expect(etag).toMatch(/^W\/"/);
    // Without PUBLIC_URL the request's own origin is used.
    expect(parse(await res.text()).rss.channel.link).toBe("http://localhost/aktualnosci");

    const again = await settle(() => rssLoader(args("/aktualnosci/rss.xml", { headers: { "If-None-Match": etag } })));
    expect(again.status).toBe(304);
    await insertArticle({ header: "Dwa" });
    const changed = await settle(() => rssLoader(args("/aktualnosci/rss.xml", { headers: { "If-None-Match": etag } })));
    expect(changed.status).toBe(200);
  });
});

describe("sitemap", () => {
  it("lists public pages, articles and albums with lastmod, never the pastor area", async () => {
    const a = await insertArticle({ date: "2025-04-01" });
    const legacy = await insertArticle({ date: "3 marca 2019, niedziela" });
    await insertGallery({ title: "Obóz & wycieczka / 2025", date: "2025-07-01" });
    const { urlset } = parse(await sitemap(ORIGIN));
    expect(urlset["@xmlns"]).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
    const byLoc = new Map<string, string | undefined>(
      urlset.url.map((u: { loc: string; lastmod?: string }) => [u.loc, u.lastmod]),
    );
    for (const page of [
      "/",
      "/onas",
      "/aktualnosci",
      "/kalendarz",
      "/sluzby",
      "/galeria",
      "/kontakt",
      "/polityka-prywatnosci",
    ]) {
      expect(byLoc.has(`${ORIGIN}${page}`), page).toBe(true);
    }
    expect(byLoc.get(`${ORIGIN}/aktualnosci/${a.id}`)).toMatch(/^2025-04-01T/);
    // The legacy article's creation time (its id).
    expect(byLoc.get(`${ORIGIN}/aktualnosci/${legacy.id}`)).toBe(
      new Date(Number(legacy.id)).toISOString().replace(/\.\d{3}Z$/, "Z"),
    );
    const album = `${ORIGIN}/galeria/${encodeURIComponent("Obóz & wycieczka / 2025")}`;
    expect(byLoc.get(album)).toBe("2025-07-01");
    expect(byLoc.get(`${ORIGIN}/galeria`)).toBe("2025-07-01");
    expect(byLoc.get(`${ORIGIN}/aktualnosci`)).toMatch(/^2025-04-01T/);
    // W3C datetime everywhere.
    for (const lastmod of byLoc.values()) {
      if (lastmod) expect(lastmod).toMatch(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}Z)?$/);
    }
    expect([...byLoc.keys()].some((loc) => loc.includes("strefapastora"))).toBe(false);
  });

  it("answers as XML, revalidated by the browser (no shared cache while it prints the request's host)", async () => {
    const res = await settle(() => sitemapLoader(args("/sitemap.xml")));
    expect(res.headers.get("Content-Type")).toBe("application/xml; charset=utf-8");
    expect(res.headers.get("Cache-Control")).toBe("private, max-age=0, must-revalidate");
    expect(res.headers.get("ETag")).toBeTruthy();
    expect(parse(await res.text()).urlset.url.length).toBeGreaterThan(7);
  });
});

describe("robots.txt", () => {
  it("keeps crawlers out of the pastor area and uploads, lets sharing images through, names the sitemap", async () => {
    const lines = robotsTxt(ORIGIN).split("\n");
    expect(lines).toEqual(
      expect.arrayContaining([
        "User-agent: *",
        "Disallow: /strefapastora",
        "Disallow: /pliki/",
        "Allow: /pliki/*.jpeg$",
        "Allow: /",
        `Sitemap: ${ORIGIN}/sitemap.xml`,
      ]),
    );
    const res = await settle(() => robotsLoader(args("/robots.txt")));
    expect(res.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toContain("Sitemap: http://localhost/sitemap.xml");
  });
});
