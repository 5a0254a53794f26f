// /kalendarz for a visitor, with JavaScript on and off: the sample meetings
// grouped by day, an occurrence's page with its Event data and its .ics,
// the month view, both at most 30 KB before scrolling on a phone, the feed
// with its ETag; no request leaves the site.
import type { Request } from "@playwright/test";
import { expect, test } from "./fixtures";

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("the calendar lists the meetings and opens one occurrence", async ({ page, baseURL }) => {
      const elsewhere: string[] = [];
      page.on("request", (r) => {
        if (new URL(r.url()).host !== new URL(baseURL!).host) elsewhere.push(r.url());
      });
      await page.setViewportSize({ width: 320, height: 640 });
      await page.goto("/kalendarz");
      await expect(page.getByRole("heading", { level: 1, name: "Kalendarz" })).toBeVisible();
      // Eight weeks of three weekly meetings (Sunday, Saturday, Tuesday and Friday): 32 occurrences.
      await expect(page.locator(".occurrences li")).toHaveCount(32);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      // The month's table fits too, with its meetings and the way to the next month and back.
      // The sample meetings start the day the site was made: on a month's last
      // days the first Sunday service is in the next month's table.
      const sunday = (await page.getByRole("link", { name: "Nabożeństwo niedzielne" }).first().getAttribute("href"))!;
      await page.getByRole("link", { name: "widok miesiąca" }).click();
      await expect(page.locator("table.month th")).toHaveCount(7);
      if (new URL(page.url()).searchParams.get("miesiac") !== sunday.slice(-10, -3)) {
        await page.getByRole("link", { name: "następny miesiąc →" }).click();
        await expect(page).toHaveURL(new RegExp(`miesiac=${sunday.slice(-10, -3)}$`));
      }
      await expect(page.locator("table.month").getByRole("link", { name: "Nabożeństwo niedzielne" })).not.toHaveCount(
        0,
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      const month = (await page.locator("table.month caption").textContent())!;
      await page.getByRole("link", { name: "następny miesiąc →" }).click();
      await expect(page.locator("table.month caption")).not.toHaveText(month);
      await page.getByRole("link", { name: "← poprzedni miesiąc" }).click();
      await expect(page.locator("table.month caption")).toHaveText(month);
      await page.goto("/kalendarz");
      await page.getByRole("link", { name: "Nabożeństwo niedzielne" }).first().click();
      await expect(page).toHaveURL(/\/kalendarz\/\d+\/\d{4}-\d{2}-\d{2}$/);
      await expect(page.getByRole("heading", { level: 1, name: "Nabożeństwo niedzielne" })).toBeVisible();
      await expect(page.getByText("niedziela", { exact: false }).first()).toBeVisible();
      const data = JSON.parse((await page.locator('script[type="application/ld+json"]').last().textContent())!);
      expect(data).toMatchObject({
        "@type": "Event",
        name: "Nabożeństwo niedzielne",
        eventStatus: "https://schema.org/EventScheduled",
        // The address is the congregation's own, as on /kontakt.
        location: {
          name: "Kampus Wieliczka, skrzydło E",
          address: "ul. Marszałka Józefa Piłsudskiego 105, 32-020 Wieliczka",
        },
      });
      expect(data.startDate).toMatch(/T10:00:00\+0[12]:00$/);
      const ics = await page.getByRole("link", { name: "dodaj do kalendarza" }).getAttribute("href");
      const res = await page.request.get(ics!);
      expect(res.headers()["content-type"]).toContain("text/calendar");
      expect(await res.text()).toContain("SUMMARY:Nabożeństwo niedzielne");
      expect(elsewhere).toEqual([]);
    });

    test("the calendar and its month view weigh at most 30 KB before scrolling on a phone", async ({ page }) => {
      await page.setViewportSize({ width: 375, height: 667 });
      for (const path of ["/kalendarz", "/kalendarz?miesiac=2026-12"]) {
        const sizes: Promise<number>[] = [];
        const count = (r: Request) => sizes.push(r.sizes().then((s) => s.responseHeadersSize + s.responseBodySize));
        page.on("requestfinished", count);
        await page.goto(path, { waitUntil: "networkidle" });
        page.off("requestfinished", count);
        const bytes = (await Promise.all(sizes)).reduce((sum, n) => sum + n, 0);
        expect(bytes, path).toBeGreaterThan(1_000);
        expect(bytes, path).toBeLessThanOrEqual(30 * 1024);
      }
    });
  });
}

test("the feed answers 304 to its own ETag", async ({ request }) => {
  const first = await request.get("/kalendarz.ics");
  expect(first.status()).toBe(200);
  const body = await first.text();
  expect(body).toContain("BEGIN:VTIMEZONE");
  expect(body).toContain("RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=TU,FR");
  const etag = first.headers()["etag"];
  const again = await request.get("/kalendarz.ics", { headers: { "If-None-Match": etag } });
  expect(again.status()).toBe(304);
});
