// What search engines are told about the pastor area, with JavaScript on and
// off (its pages are hydrated; the public pages' tags are in seo.html.spec.ts).
import { expect, test } from "./fixtures";

test("the pastor area is kept out of search engines and shares nothing", async ({ page }) => {
  await page.goto("/strefapastora/logowanie");
  await expect(page.locator('head meta[name="robots"]')).toHaveAttribute("content", "noindex, nofollow");
  await expect(page.locator('head meta[property^="og:"]')).toHaveCount(0);
  await expect(page.locator('head link[rel="canonical"]')).toHaveCount(0);
  // The news feed is named on every page, this one too.
  await expect(page.locator('head link[rel="alternate"][type="application/rss+xml"]')).toHaveCount(1);
});
