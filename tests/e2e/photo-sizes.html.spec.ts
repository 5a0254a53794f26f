// The file the browser picks for each layout: AVIF, which Chromium reads,
// at the width `sizes` promises, or a phone downloads twice the pixels it
// shows. (The demo photos are 1600 px wide, so every variant exists.) The
// choice is the browser's own, from the HTML: run once, without JavaScript.
import { type Locator } from "@playwright/test";
import { expect, test } from "./fixtures";

const ALBUM = "/galeria/Piknik%20zborowy%202025";

/** The width in the name of the AVIF file the browser chose (…-720.avif). */
async function pickedWidth(img: Locator): Promise<number> {
  await expect(img).toHaveJSProperty("complete", true);
  const src = await img.evaluate((i: HTMLImageElement) => i.currentSrc);
  const match = /-(\d+)\.avif$/.exec(src);
  expect(match, src).not.toBeNull();
  return Number(match![1]);
}

test.describe("a 375 px phone at DPR 2", () => {
  test.use({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2 });

  test("takes the 640 px file for a card, 720 px for an article, 360 px for an album cell", async ({ page }) => {
    // A card is 309 px wide: 618 device pixels.
    await page.goto("/aktualnosci");
    expect(await pickedWidth(page.locator(".card-image").first())).toBe(640);
    // The album before the list: its cover is the album's first photo, already fetched at 640 px.
    await page.goto(ALBUM);
    expect(await pickedWidth(page.locator(".photo-grid img").first())).toBe(360);
    await page.goto("/galeria");
    expect(await pickedWidth(page.locator(".card-image").first())).toBe(640);
    await page.goto("/aktualnosci");
    await page.locator(".cards > li").first().getByRole("link").first().click();
    expect(await pickedWidth(page.locator(".article-image"))).toBe(720);
  });
});

test.describe("a 1280 px screen at DPR 1", () => {
  test.use({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });

  test("takes the 360 px file for a card and an album cell, 960 px for an article", async ({ page }) => {
    await page.goto("/aktualnosci");
    expect(await pickedWidth(page.locator(".card-image").first())).toBe(360);
    await page.goto(ALBUM);
    expect(await pickedWidth(page.locator(".photo-grid img").first())).toBe(360);
    await page.goto("/aktualnosci");
    await page.locator(".cards > li").first().getByRole("link").first().click();
    expect(await pickedWidth(page.locator(".article-image"))).toBe(960);
  });
});
