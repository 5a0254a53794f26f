// Sharing tags and structured data. JSON-LD is checked with the jsonld
// processor, offline: schema.org's context is answered locally.
import jsonld from "jsonld";
import { describe, expect, it } from "vitest";
import { readConfig } from "~/services/config.server";
import { church, meetingTime, sampleFacts } from "~/content/church";
import { publicFacts } from "~/features/church/facts.server";
import { canonicalPath, jsonLdText, seo } from "~/features/seo/seo";
import { churchJsonLd, newsArticleJsonLd } from "~/features/seo/structured-data";

const ORIGIN = "https://zbor.example.org";
const S = "https://schema.org/";

const documentLoader = async (url: string) => {
  if (/^https?:\/\/schema\.org\/?$/.test(url)) {
    return { contextUrl: undefined, documentUrl: url, document: { "@context": { "@vocab": S } } };
  }
  throw new Error(`no network in tests: ${url}`);
};

type Node = Record<string, unknown[]>;
const expand = async (doc: unknown) =>
  (await jsonld.expand(JSON.parse(jsonLdText(doc)), { documentLoader } as jsonld.Options.Expand)) as Node[];
const value = (node: Node, prop: string) =>
  (node[S + prop] as { "@value"?: unknown; "@id"?: string }[]).map((v) => v["@value"] ?? v["@id"]);
const child = (node: Node, prop: string) => (node[S + prop] as Node[])[0];

const metaArgs = (pathname: string, search = "") =>
  ({
    location: { pathname, search, hash: "", state: null, key: "k" },
    matches: [{ id: "root", data: { origin: ORIGIN } }],
  }) as unknown as Parameters<typeof seo>[0];

describe("Church structured data", () => {
  it("names the congregation, its address, phone, e-mail, channel and weekly meetings", async () => {
    const [node] = await expand(
      churchJsonLd(ORIGIN, publicFacts({ facts: sampleFacts, sample: [] }, { hideSamples: false }), church.meetings),
    );
    expect(node["@type"]).toEqual([`${S}Church`]);
    expect(value(node, "name")).toEqual([sampleFacts.name]);
    expect(value(node, "url")).toEqual([`${ORIGIN}/`]);
    expect(value(node, "email")).toEqual([sampleFacts.email]);
    expect(value(node, "telephone")).toEqual([...sampleFacts.phones]);
    expect(value(node, "sameAs")).toEqual([sampleFacts.videoChannelUrl]);
    const address = child(node, "address");
    expect(address["@type"]).toEqual([`${S}PostalAddress`]);
    expect(value(address, "streetAddress")).toEqual([sampleFacts.street]);
    expect(value(address, "postalCode")).toEqual([sampleFacts.postalCode]);
    expect(value(address, "addressLocality")).toEqual(["Wieliczka"]);

    // The meetings: Sunday 10:00; youth Saturday 17:00–20:00; home groups Tuesday and Friday 19:00.
    const events = node[`${S}event`] as Node[];
    const schedules = events.map((e) => {
      expect(e["@type"]).toEqual([`${S}Event`]);
      const s = child(e, "eventSchedule");
      expect(s["@type"]).toEqual([`${S}Schedule`]);
      expect(value(s, "repeatFrequency")).toEqual(["P1W"]);
      expect(value(s, "scheduleTimezone")).toEqual(["Europe/Warsaw"]);
      return {
        name: value(e, "name")[0],
        byDay: value(s, "byDay"),
        start: value(s, "startTime")[0],
        end: s[`${S}endTime`] ? value(s, "endTime")[0] : null,
      };
    });
    expect(schedules).toEqual([
      { name: "Nabożeństwo niedzielne", byDay: [`${S}Sunday`], start: "10:00:00", end: null },
      { name: "Spotkania młodzieżowe", byDay: [`${S}Saturday`], start: "17:00:00", end: "20:00:00" },
      { name: "Grupy domowe", byDay: [`${S}Tuesday`, `${S}Friday`], start: "19:00:00", end: null },
    ]);
  });

  it("shows the same meeting times on the page as in the data", () => {
    expect(church.meetings.map((m) => m.when)).toEqual([
      "niedziela, godz. 10:00",
      "sobota, godz. 17:00–20:00",
      "wtorek i piątek, godz. 19:00",
    ]);
    expect(meetingTime({ days: ["Monday", "Wednesday", "Thursday"], start: "18:30", end: "20:00" })).toBe(
      "poniedziałek, środa i czwartek, godz. 18:30–20:00",
    );
  });
});

describe("NewsArticle structured data", () => {
  const article = {
    id: "1740000000000",
    header: 'Koniec </script><script>alert("x")</script> <!-- & ]]>',
    description: "Opis",
    published: "2025-06-08T10:00:00.000Z",
    image: { url: "/pliki/aktualnosci/a-1200.jpeg", width: 1200, height: 800 },
  };

  it("carries headline, date, image, author, publisher and the page", async () => {
    const [node] = await expand(newsArticleJsonLd(ORIGIN, article, sampleFacts.name));
    expect(node["@type"]).toEqual([`${S}NewsArticle`]);
    expect(value(node, "headline")).toEqual([article.header]);
    expect(value(node, "datePublished")).toEqual([article.published]);
    expect(value(node, "image")).toEqual([`${ORIGIN}/pliki/aktualnosci/a-1200.jpeg`]);
    for (const who of ["author", "publisher"]) {
      const org = child(node, who);
      expect(org["@type"]).toEqual([`${S}Organization`]);
      expect(value(org, "name")).toEqual([sampleFacts.name]);
    }
    const page = child(node, "mainEntityOfPage");
    expect(page["@type"]).toEqual([`${S}WebPage`]);
    expect(page["@id"]).toBe(`${ORIGIN}/aktualnosci/1740000000000`);
  });

  it("cannot be broken out of by the pastor's text", () => {
    const text = jsonLdText(newsArticleJsonLd(ORIGIN, article, sampleFacts.name));
    expect(text).not.toMatch(/[<>]/);
    expect(text).not.toContain("</script");
    expect(JSON.parse(text).headline).toBe(article.header);
  });
});

describe("meta tags", () => {
  const byKey = (tags: ReturnType<typeof seo>) =>
    Object.fromEntries(
      tags.map((t) => {
        const r = t as Record<string, string>;
        return r.tagName === "link"
          ? [`link:${r.rel}`, r.href]
          : "title" in r
            ? ["title", r.title]
            : [r.property ?? r.name, r.content];
      }),
    );

  it("give a page its canonical address, Open Graph, Twitter card and the feed", () => {
    const tags = byKey(
      seo(metaArgs("/aktualnosci/17"), {
        title: "Tytuł",
        description: "Opis",
        type: "article",
        image: { url: "/pliki/a-1200.jpeg", width: 1200, height: 600 },
      }),
    );
    expect(tags).toMatchObject({
      title: "Tytuł",
      description: "Opis",
      "link:canonical": `${ORIGIN}/aktualnosci/17`,
      "link:alternate": `${ORIGIN}/aktualnosci/rss.xml`,
      "og:type": "article",
      "og:title": "Tytuł",
      "og:description": "Opis",
      "og:url": `${ORIGIN}/aktualnosci/17`,
      "og:image": `${ORIGIN}/pliki/a-1200.jpeg`,
      "og:image:width": "1200",
      "og:site_name": sampleFacts.name,
      "og:locale": "pl_PL",
      "twitter:card": "summary_large_image",
      "twitter:image": `${ORIGIN}/pliki/a-1200.jpeg`,
    });
  });

  it("name the congregation as the root loader read it from the database", () => {
    const args = {
      ...metaArgs("/kontakt"),
      matches: [{ id: "root", data: { origin: ORIGIN, site: { ...sampleFacts, name: "Zbór w Niepołomicach" } } }],
    } as unknown as Parameters<typeof seo>[0];
    const tags = byKey(seo(args, { page: "Kontakt" }));
    expect(tags.title).toBe("Kontakt · Zbór w Niepołomicach");
    expect(tags["og:site_name"]).toBe("Zbór w Niepołomicach");
    expect(tags["link:alternate"]).toBe(`${ORIGIN}/aktualnosci/rss.xml`);
  });

  it("leave out og:image without a photo (social sites ignore the SVG default)", () => {
    const tags = byKey(seo(metaArgs("/kontakt")));
    expect(tags["og:image"]).toBeUndefined();
    expect(tags["twitter:card"]).toBe("summary");
    expect(tags.title).toBe(sampleFacts.name);
  });

  it("still render when the root loader's data is missing (an error page before it ran)", () => {
    const tags = byKey(
      seo(
        { matches: [], location: { pathname: "/strefapastora/artykuly/dodaj", search: "" } } as unknown as Parameters<
          typeof seo
        >[0],
        { title: "Panel" },
      ),
    );
    expect(tags).toEqual({ title: "Panel", robots: "noindex, nofollow", "link:alternate": "/aktualnosci/rss.xml" });
    expect(
      byKey(
        seo({ matches: [], location: { pathname: "/kontakt", search: "" } } as unknown as Parameters<typeof seo>[0]),
      )["link:canonical"],
    ).toBe("/kontakt");
  });

  it("keep the pastor area out of search engines and share nothing about it", () => {
    const tags = byKey(seo(metaArgs("/strefapastora/artykuly"), { title: "Panel" }));
    expect(tags).toEqual({
      title: "Panel",
      robots: "noindex, nofollow",
      "link:alternate": `${ORIGIN}/aktualnosci/rss.xml`,
    });
  });

  it("drop query strings from canonical addresses, except the news page number", () => {
    expect(canonicalPath("/aktualnosci", "?strona=3&utm_source=x")).toBe("/aktualnosci?strona=3");
    expect(canonicalPath("/aktualnosci", "?strona=1")).toBe("/aktualnosci");
    expect(canonicalPath("/galeria", "?fbclid=1")).toBe("/galeria");
    expect(canonicalPath("/aktualnosci/", "")).toBe("/aktualnosci");
    expect(canonicalPath("/", "")).toBe("/");
  });
});

describe("PUBLIC_URL", () => {
  it("is an absolute http(s) address, kept without a trailing slash", () => {
    expect(readConfig({}).publicUrl).toBeNull();
    expect(readConfig({ PUBLIC_URL: "" }).publicUrl).toBeNull();
    expect(readConfig({ PUBLIC_URL: "https://zbor.example.org/" }).publicUrl).toBe("https://zbor.example.org");
    expect(readConfig({ PUBLIC_URL: "http://localhost:3000" }).publicUrl).toBe("http://localhost:3000");
    for (const bad of ["zbor.example.org", "ftp://zbor.example.org", "https://zbor.example.org/?a=1", "/strona"]) {
      expect(() => readConfig({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/);
    }
  });
});
