// 'Zdjęcia z historii zboru', with JavaScript on and off: photos uploaded in
// the pastor area are at the end of 'Zdjęcia' on /onas at once, ↑ moves one,
// and removed ones are gone; a second browser sees each change at once.
import type { Page } from "@playwright/test";
import { expect, flash, signIn, test } from "./fixtures";
import { confirmDelete } from "./bin.helpers";
import { photo } from "./galleries.helpers";
import { keyboardMove } from "./sortable.helpers";

const PAGE = "/strefapastora/zdjecia-historii";

/** The descriptions (alt texts) of the photos a visitor sees on /onas, in order. */
async function shownPhotos(visitor: Page) {
  await visitor.goto("/onas");
  return visitor.locator(".photo-grid img").evaluateAll((imgs) => imgs.map((i) => i.getAttribute("alt") ?? ""));
}

const rows = (page: Page) => page.locator(".history-photos-edit > li");

test.afterEach(async ({ page }) => {
  // Whatever a failed run left: photos named "E2E…" are removed.
  await page.goto(PAGE);
  if (!page.url().endsWith(PAGE)) return;
  const left = rows(page).filter({ has: page.locator('input[name="name"][value^="E2E"]') });
  while ((await left.count()) > 0) {
    await confirmDelete(page, left.first().getByRole("button", { name: /^usuń/ }));
    await expect(flash(page)).toContainText("Usunięto zdjęcie");
  }
});

test("history photos uploaded, moved up and removed; /onas follows at once", async ({ page, browser, baseURL }) => {
  test.setTimeout(60_000);
  const visitorContext = await browser.newContext({ baseURL, javaScriptEnabled: test.info().project.name === "js" });
  const visitor = await visitorContext.newPage();
  const before = await shownPhotos(visitor);
  const tag = Date.now().toString(36);
  const [a, b] = [`E2E-historia-a-${tag}.jpg`, `E2E-historia-b-${tag}.jpg`];

  await signIn(page);
  await page.getByRole("link", { name: "zdjęcia z historii zboru" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Zdjęcia z historii zboru");
  await page.getByLabel(/^Wybierz zdjęcia/).setInputFiles([await photo(a, 30), await photo(b, 250)]);
  await page.getByRole("button", { name: "dodaj zdjęcia" }).click();
  await expect(flash(page)).toHaveText("2 z 2 zdjęć dodano");
  expect(await shownPhotos(visitor)).toEqual([...before, a, b]);
  // Each opens large in a new tab, served as a JPEG.
  const link = visitor.locator(".photo-grid a").filter({ has: visitor.getByRole("img", { name: b }) });
  await expect(link).toHaveAttribute("target", "_blank");
  const full = await visitor.request.get((await link.getAttribute("href"))!);
  expect(full.headers()["content-type"]).toBe("image/jpeg");

  await page.getByRole("button", { name: `przesuń zdjęcie „${b}” wyżej` }).click();
  await expect(flash(page)).toHaveText(`Przesunięto zdjęcie „${b}”.`);
  expect(await shownPhotos(visitor)).toEqual([...before, b, a]);

  if (test.info().project.name === "js") {
    // With the script, also by keyboard on the row's handle: space, arrow down, space.
    await keyboardMove(page, page.getByRole("button", { name: `przeciągnij „${b}”` }), "ArrowDown", before.length + 2);
    await expect(rows(page).last()).toHaveAttribute("aria-label", b);
    expect(await shownPhotos(visitor)).toEqual([...before, a, b]);
  }

  for (const name of [a, b]) {
    await confirmDelete(
      page,
      rows(page)
        .filter({ has: page.getByRole("button", { name: `usuń zdjęcie „${name}”` }) })
        .getByRole("button", { name: /^usuń/ }),
    );
    await expect(flash(page)).toHaveText(`Usunięto zdjęcie „${name}”.`);
  }
  expect(await shownPhotos(visitor)).toEqual(before);
  await visitorContext.close();
});
