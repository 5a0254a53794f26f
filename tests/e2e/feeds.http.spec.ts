import { XMLParser, XMLValidator } from "fast-xml-parser";
import { expect, publicUrl, test } from "./fixtures";

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  isArray: (n) => ["item", "url"].includes(n),
});

test("robots.txt keeps crawlers out of the pastor area and names the sitemap", async ({ request }) => {
  const res = await request.get("/robots.txt");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("text/plain; charset=utf-8");
  const text = await res.text();
  expect(text).toMatch(/^User-agent: \*$/m);
  expect(text).toMatch(/^Disallow: \/strefapastora$/m);
  expect(text).toMatch(/^Disallow: \/pliki\/$/m);
  expect(text).toMatch(new RegExp(`^Sitemap: ${publicUrl()}/sitemap.xml$`, "m"));
});

test("the sitemap is valid and every address in it answers", async ({ request }) => {
  const res = await request.get("/sitemap.xml");
  expect(res.headers()["content-type"]).toBe("application/xml; charset=utf-8");
  expect(res.headers()["cache-control"]).toMatch(
    /^public, max-age=0, must-revalidate, s-maxage=2, stale-if-error=86400$/,
  );
  const xml = await res.text();
  expect(XMLValidator.validate(xml)).toBe(true);
  const urls: { loc: string; lastmod?: string }[] = parser.parse(xml).urlset.url;
  expect(urls.some((u) => /\/aktualnosci\/\d+$/.test(u.loc) && u.lastmod)).toBe(true);
  expect(urls.some((u) => /\/galeria\/.+/.test(u.loc) && u.lastmod)).toBe(true);
  for (const { loc } of urls) {
    expect(loc.startsWith(`${publicUrl()}/`), loc).toBe(true);
    const page = await request.get(loc.replace(publicUrl(), ""), { maxRedirects: 0 });
    expect(page.status(), loc).toBe(200);
  }
});

test("the news feed is valid RSS 2.0 whose items lead to the articles", async ({ request }) => {
  const res = await request.get("/aktualnosci/rss.xml");
  expect(res.headers()["content-type"]).toBe("application/rss+xml; charset=utf-8");
  const etag = res.headers().etag;
  expect(etag).toBeTruthy();
  const xml = await res.text();
  expect(XMLValidator.validate(xml)).toBe(true);
  const channel = parser.parse(xml).rss.channel;
  expect(channel["atom:link"]["@href"]).toBe(`${publicUrl()}/aktualnosci/rss.xml`);
  expect(channel.item.length).toBeGreaterThan(0);
  for (const item of channel.item) {
    const page = await request.get(item.link.replace(publicUrl(), ""));
    expect(page.status()).toBe(200);
    expect(await page.text()).toContain(item.title.replace(/&/g, "&amp;"));
  }
  const again = await request.get("/aktualnosci/rss.xml", { headers: { "If-None-Match": etag } });
  expect(again.status()).toBe(304);
});
