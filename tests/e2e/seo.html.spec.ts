// What crawlers and sharing sites read in a public page's HTML. Public
// pages ship no script that touches it (root.tsx: no hydration there), so
// this runs once, without JavaScript (*.html.spec.ts, playwright.config.ts);
// the pastor area, which is hydrated, is checked both ways in seo.spec.ts.
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { sampleFacts } from "../../app/content/church";
import { PUBLIC_PAGES, expect, publicUrl, test } from "./fixtures";

// tests/e2e/server.mjs sets PUBLIC_URL to publicUrl(): another host than
// the one the browser uses, so every absolute link must come from the setting.
const attr = (page: Page, selector: string, name = "content") => page.locator(`head ${selector}`).getAttribute(name);

async function expectSharingTags(page: Page, path: string) {
  const url = `${publicUrl()}${path}`;
  await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute("href", url);
  await expect(page.locator('head meta[property="og:url"]')).toHaveAttribute("content", url);
  await expect(page.locator('head meta[property="og:site_name"]')).toHaveAttribute("content", sampleFacts.name);
  await expect(page.locator('head meta[property="og:locale"]')).toHaveAttribute("content", "pl_PL");
  expect(await attr(page, 'meta[property="og:title"]')).toBe(await page.title());
  expect(await attr(page, 'meta[property="og:description"]')).toBe(await attr(page, 'meta[name="description"]'));
  expect((await attr(page, 'meta[name="description"]'))?.length).toBeGreaterThan(10);
  await expect(page.locator('head meta[name="twitter:card"]')).toHaveAttribute("content", /^summary(_large_image)?$/);
  const feed = page.locator('head link[rel="alternate"][type="application/rss+xml"]');
  await expect(feed).toHaveAttribute("href", `${publicUrl()}/aktualnosci/rss.xml`);
  await expect(feed).toHaveCount(1);
  await expect(page.locator('head meta[name="robots"]')).toHaveCount(0);
}

/** The JSON-LD blocks of the page, parsed. */
async function structuredData(page: Page): Promise<Record<string, unknown>[]> {
  const texts = await page.locator('script[type="application/ld+json"]').allTextContents();
  return texts.map((t) => JSON.parse(t));
}

/** An address under PUBLIC_URL, fetched from the server the tests run. */
const local = (url: string) => url.replace(publicUrl(), "");

for (const path of PUBLIC_PAGES) {
  test(`${path} has a canonical address, Open Graph and Twitter tags and the news feed`, async ({ page }) => {
    await page.goto(path);
    await expectSharingTags(page, path);
  });
}

test("the home page and the contact page describe the congregation as a Church", async ({ page }) => {
  for (const path of ["/", "/kontakt"]) {
    await page.goto(path);
    const [data] = await structuredData(page);
    expect(data).toMatchObject({
      "@type": "Church",
      name: sampleFacts.name,
      email: sampleFacts.email,
      sameAs: [sampleFacts.videoChannelUrl],
      url: `${publicUrl()}/`,
      address: { "@type": "PostalAddress", streetAddress: sampleFacts.street },
    });
    expect((data.event as { eventSchedule: { byDay: string[] } }[]).map((e) => e.eventSchedule.byDay)).toEqual([
      ["https://schema.org/Sunday"],
      ["https://schema.org/Saturday"],
      ["https://schema.org/Tuesday", "https://schema.org/Friday"],
    ]);
  }
  // The same times, from the same source, as the visitor reads them.
  await page.goto("/");
  await expect(page.getByText("sobota, godz. 17:00–20:00")).toBeVisible();
  await expect(page.getByText("wtorek i piątek, godz. 19:00")).toBeVisible();
});

test("an article is shared with its header, excerpt and a 1200 px JPEG, and described as a NewsArticle", async ({
  page,
  request,
}) => {
  await page.goto("/aktualnosci");
  const href = (await page.locator('main a[href^="/aktualnosci/"]').first().getAttribute("href"))!;
  await page.goto(href);
  await expectSharingTags(page, href);
  const header = (await page.getByRole("heading", { level: 1 }).textContent())!;
  expect(await attr(page, 'meta[property="og:title"]')).toBe(`${header} · ${sampleFacts.name}`);
  await expect(page.locator('head meta[property="og:type"]')).toHaveAttribute("content", "article");
  await expect(page.locator('head meta[name="twitter:card"]')).toHaveAttribute("content", "summary_large_image");
  const image = (await attr(page, 'meta[property="og:image"]'))!;
  expect(image).toMatch(new RegExp(`^${publicUrl()}/pliki/aktualnosci/.+-1200\\.jpeg$`));
  expect(await attr(page, 'meta[name="twitter:image"]')).toBe(image);

  const file = await request.get(local(image));
  expect(file.status()).toBe(200);
  expect(file.headers()["content-type"]).toBe("image/jpeg");
  const meta = await sharp(await file.body()).metadata();
  expect(meta).toMatchObject({ format: "jpeg", width: 1200 });
  expect(await attr(page, 'meta[property="og:image:height"]')).toBe(String(meta.height));

  const [data] = await structuredData(page);
  expect(data).toMatchObject({
    "@type": "NewsArticle",
    headline: header,
    image: [image],
    mainEntityOfPage: { "@id": `${publicUrl()}${href}` },
    author: { "@type": "Organization", name: sampleFacts.name },
    publisher: { "@type": "Organization", name: sampleFacts.name },
  });
  expect(Number.isNaN(Date.parse(data.datePublished as string))).toBe(false);
});

test("an album is shared with its cover", async ({ page, request }) => {
  await page.goto("/galeria");
  const href = (await page.locator('main a[href^="/galeria/"]').first().getAttribute("href"))!;
  await page.goto(href);
  await expectSharingTags(page, href);
  const image = (await attr(page, 'meta[property="og:image"]'))!;
  expect(image).toMatch(new RegExp(`^${publicUrl()}/pliki/galeria/.+\\.jpeg$`));
  // The cover is the album's first photo.
  const first = (await page.locator("main .photo-grid a").first().getAttribute("href"))!;
  expect(local(image).replace(/-\d+\.jpeg$/, ".jpg")).toBe(first);
  const file = await request.get(local(image));
  expect(file.headers()["content-type"]).toBe("image/jpeg");
  expect((await sharp(await file.body()).metadata()).width).toBeLessThanOrEqual(1200);
});
