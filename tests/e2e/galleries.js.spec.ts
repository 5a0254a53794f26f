// What the album editor's script adds: uploads without a page load, one
// request and one progress bar per file, and reordering by dragging, also
// from the keyboard (25 px per arrow key, as on the original site).
import {
  OLD_DATE,
  editorOrder,
  editorRows,
  endsWith,
  fillAlbum,
  heic,
  photo,
  photoButton,
  photoName,
  removeTestAlbums,
  signIn,
  slug,
  uniqueTitle,
} from "./galleries.helpers";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

// Tall enough that the whole editor is on screen: mouse and keyboard drags stay in view.
test.use({ viewport: { width: 1280, height: 2400 } });

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

/** Picks a photo up by its handle with the keyboard, moves it `presses` arrow steps, drops it. */
async function keyboardDrag(page: Page, name: string, key: "ArrowUp" | "ArrowDown", presses: number) {
  const handle = page.getByRole("button", { name: `Przenieś zdjęcie ${name}` });
  const row = editorRows(page).filter({ has: handle });
  await handle.focus();
  await page.keyboard.press("Space");
  const start = (await row.boundingBox())!.y;
  for (let i = 1; i <= presses; i++) {
    await page.keyboard.press(key);
    // Each press moves the photo by 25 px.
    await expect
      .poll(async () => Math.round((await row.boundingBox())!.y - start))
      .toBe((key === "ArrowDown" ? 25 : -25) * i);
  }
  // The new order goes to the server as soon as the photo is dropped.
  const saved = page.waitForResponse(
    (r) => r.url().endsWith("/strefapastora/galeria/dodaj/zdjecia") && r.request().method() === "POST",
  );
  await page.keyboard.press("Space");
  expect((await saved).status()).toBe(200);
  await expect(page.getByRole("button", { name: "zapisz", exact: true })).toBeEnabled();
}

test.afterEach(async ({ page }) => {
  await removeTestAlbums(page);
});

test("each file is sent on its own with its own progress bar, without a page load", async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto("/strefapastora/galeria/dodaj");
  await fillAlbum(page, { title: uniqueTitle("Postęp") });
  // No document is loaded: a marker on the window survives.
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  const uploads: string[] = [];
  page.on("request", (r) => {
    const multipart = /^multipart\/form-data/.test(r.headers()["content-type"] ?? "");
    if (r.method() === "POST" && r.url().endsWith("/strefapastora/galeria/dodaj/zdjecia") && multipart)
      uploads.push(r.url());
  });
  // Slow the upstream so the bars are seen moving.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 400 * 1024,
  });

  const files = [
    await photo("duze-1.jpg", 0, { noise: true, width: 900, height: 700 }),
    await photo("duze-2.jpg", 0, { noise: true, width: 900, height: 700 }),
    heic("IMG_0042.HEIC"),
  ];
  await page.getByLabel("Wybierz zdjęcia").setInputFiles(files);
  await page.getByRole("button", { name: "dodaj zdjęcie" }).click();

  const list = page.getByRole("list", { name: "Wysyłane zdjęcia" });
  await expect(list.getByRole("listitem")).toHaveCount(3);
  for (const f of files) await expect(list.getByRole("progressbar", { name: `Wysyłanie ${f.name}` })).toBeVisible();
  // A bar part-way: some bytes sent, not all.
  await expect(list.getByText(/wysyłanie (?:[1-9]|[1-9]\d)%/).first()).toBeVisible({ timeout: 15_000 });

  await expect(page.locator(".upload-report")).toContainText(
    "2 z 3 zdjęć dodano; IMG_0042.HEIC: format HEIC nie jest obsługiwany",
    {
      timeout: 30_000,
    },
  );
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  // The refused file says why, on its own line.
  await expect(list.getByRole("listitem").filter({ hasText: "IMG_0042.HEIC" })).toContainText(
    "IMG_0042.HEIC: format HEIC nie jest obsługiwany",
  );
  await expect(list.getByRole("listitem").filter({ hasText: "duze-1.jpg" })).toContainText("dodano");
  for (const f of files.slice(0, 2)) {
    const bar = list.getByRole("progressbar", { name: `Wysyłanie ${f.name}` });
    expect(await bar.getAttribute("value")).toBe(await bar.getAttribute("max"));
  }
  await expect.poll(() => editorOrder(page)).toEqual(["duze-1.jpg", "duze-2.jpg"]);
  // One request per file.
  expect(uploads).toHaveLength(3);
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);

  // The address names the draft now: a reload keeps the photos and the typed values.
  await expect(page).toHaveURL(/\/strefapastora\/galeria\/dodaj\?szkic=[\w-]+$/);
  await page.reload();
  await expect.poll(() => editorOrder(page)).toEqual(["duze-1.jpg", "duze-2.jpg"]);
  await expect(page.getByLabel("DATA", { exact: true })).toHaveValue(OLD_DATE);
});

test("photos are reordered by keyboard drag, 25 px per arrow key, and the order is kept and saved", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const title = uniqueTitle("Klawiatura");
  await page.goto("/strefapastora/galeria/dodaj");
  await fillAlbum(page, { title });
  await page
    .getByLabel("Wybierz zdjęcia")
    .setInputFiles([await photo("A.jpg", 0), await photo("B.jpg", 120), await photo("C.jpg", 240)]);
  await page.getByRole("button", { name: "dodaj zdjęcie" }).click();
  await expect(page.locator(".upload-report")).toContainText("3 z 3 zdjęć dodano");
  await expect.poll(() => editorOrder(page)).toEqual(["A.jpg", "B.jpg", "C.jpg"]);
  await expect(page).toHaveURL(/\?szkic=/);

  // Past the middle of the next row: a row and a bit, in 25 px steps.
  const rowHeight = (await editorRows(page).first().boundingBox())!.height;
  const presses = Math.ceil((rowHeight + 10) / 25);
  await keyboardDrag(page, "A.jpg", "ArrowDown", presses);
  await expect.poll(() => editorOrder(page)).toEqual(["B.jpg", "A.jpg", "C.jpg"]);

  // The up/down buttons are there too.
  await photoButton(page, "na okładkę", "C.jpg").click();
  await expect.poll(() => editorOrder(page)).toEqual(["C.jpg", "B.jpg", "A.jpg"]);

  // Kept on the server: a reload shows the same order.
  await page.reload();
  await expect.poll(() => editorOrder(page)).toEqual(["C.jpg", "B.jpg", "A.jpg"]);
  await keyboardDrag(page, "B.jpg", "ArrowUp", presses);
  await expect.poll(() => editorOrder(page)).toEqual(["B.jpg", "C.jpg", "A.jpg"]);
  await page.reload();
  await expect.poll(() => editorOrder(page)).toEqual(["B.jpg", "C.jpg", "A.jpg"]);

  await page.getByRole("button", { name: "zapisz", exact: true }).click();
  await expect(page).toHaveURL(endsWith(`/strefapastora/galeria/${slug(title)}`));
  await page.goto(`/galeria/${slug(title)}`);
  const hrefs = await page.locator(".photo-grid a").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
  expect(hrefs.map((h) => photoName(h!))).toEqual(["B.jpg", "C.jpg", "A.jpg"]);
});

test("dragging with the mouse reorders an album being edited", async ({ page }) => {
  test.setTimeout(60_000);
  const title = uniqueTitle("Mysz");
  await page.goto("/strefapastora/galeria/dodaj");
  await fillAlbum(page, { title });
  await page.getByLabel("Wybierz zdjęcia").setInputFiles([await photo("A.jpg", 0), await photo("B.jpg", 120)]);
  await page.getByRole("button", { name: "dodaj zdjęcie" }).click();
  await expect.poll(() => editorOrder(page)).toEqual(["A.jpg", "B.jpg"]);
  await page.getByRole("button", { name: "zapisz", exact: true }).click();
  await expect(page).toHaveURL(endsWith(`/strefapastora/galeria/${slug(title)}`));

  await page.getByRole("link", { name: "edytuj" }).click();
  await expect.poll(() => editorOrder(page)).toEqual(["A.jpg", "B.jpg"]);
  const handle = page.getByRole("button", { name: "Przenieś zdjęcie B.jpg" });
  await handle.scrollIntoViewIfNeeded();
  const from = (await handle.boundingBox())!;
  const to = (await editorRows(page).first().boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
  await page.mouse.move(from.x + from.width / 2, to.y + 5, { steps: 10 });
  await page.mouse.up();
  await expect.poll(() => editorOrder(page)).toEqual(["B.jpg", "A.jpg"]);
  // The first change made a draft of the album; the address names it.
  await expect(page).toHaveURL(/\/edytuj\/.+\?szkic=/);
  await page.getByRole("button", { name: "zapisz", exact: true }).click();
  await expect(page).toHaveURL(endsWith(`/strefapastora/galeria/${slug(title)}`));
  const hrefs = await page.locator(".photo-grid a").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
  expect(hrefs.map((h) => photoName(h!))).toEqual(["B.jpg", "A.jpg"]);
});

test("the editor loads its own small script instead of React, and the script does the work", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(new URL(r.url()).pathname);
  });
  await page.goto("/strefapastora/galeria/dodaj");
  // One script file, the editor's own bundle: no React, React DOM or Remix runtime, nothing preloaded.
  expect(scripts).toEqual([expect.stringMatching(/^\/build\/album-editor-\w+\.js$/)]);
  await expect(page.locator('script[src*="/build/entry.client"], link[rel="modulepreload"]')).toHaveCount(0);
  expect(await page.evaluate(() => "__remixContext" in window)).toBe(false);
  // The pastor's stylesheet is inline, as on every page.
  await expect(page.locator('head > style[data-href*="/build/_assets/pastor-"]')).toHaveCount(1);

  await fillAlbum(page, { title: uniqueTitle("Skrypt") });
  await page.getByLabel("Wybierz zdjęcia").setInputFiles([await photo("A.jpg", 0), await photo("B.jpg", 120)]);
  await page.getByRole("button", { name: "dodaj zdjęcie" }).click();
  await expect(page.locator(".upload-report")).toContainText("2 z 2 zdjęć dodano");
  await expect.poll(() => editorOrder(page)).toEqual(["A.jpg", "B.jpg"]);
  await expect(page.getByRole("button", { name: "Przenieś zdjęcie B.jpg" })).toBeVisible();
  // A row's button is sent by the script: the page is not loaded again, the row moves.
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  await photoButton(page, "w górę", "B.jpg").click();
  await expect.poll(() => editorOrder(page)).toEqual(["B.jpg", "A.jpg"]);
  await expect(page.locator(".editor-image").first()).toContainText("(okładka)");
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  expect(scripts.filter((s) => s.startsWith("/build/"))).toHaveLength(1);
});

test.describe("on a phone", () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 412, height: 2400 } });

  test("a photo dragged by a finger on its handle takes its new place, and the order is saved", async ({ page }) => {
    test.setTimeout(60_000);
    await page.goto("/strefapastora/galeria/dodaj");
    await fillAlbum(page, { title: uniqueTitle("Palec") });
    await page.getByLabel("Wybierz zdjęcia").setInputFiles([await photo("A.jpg", 0), await photo("B.jpg", 120)]);
    await page.getByRole("button", { name: "dodaj zdjęcie" }).click();
    await expect.poll(() => editorOrder(page)).toEqual(["A.jpg", "B.jpg"]);
    await expect(page.getByRole("button", { name: "zapisz", exact: true })).toBeEnabled();

    // A finger on B's handle, moved in small steps onto the first row, and lifted.
    const handle = (await page.getByRole("button", { name: "Przenieś zdjęcie B.jpg" }).boundingBox())!;
    const first = (await editorRows(page).first().boundingBox())!;
    const x = handle.x + handle.width / 2;
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: "touchStart" | "touchMove" | "touchEnd", y: number) =>
      cdp.send("Input.dispatchTouchEvent", { type, touchPoints: type === "touchEnd" ? [] : [{ x, y }] });
    const saved = page.waitForResponse(
      (r) => r.url().endsWith("/strefapastora/galeria/dodaj/zdjecia") && r.request().method() === "POST",
    );
    await touch("touchStart", handle.y + handle.height / 2);
    for (let y = handle.y + handle.height / 2; y > first.y + 5; y -= 10) await touch("touchMove", y);
    await touch("touchMove", first.y + 5);
    await touch("touchEnd", first.y + 5);
    await expect.poll(() => editorOrder(page)).toEqual(["B.jpg", "A.jpg"]);
    expect((await saved).status()).toBe(200);
    await page.reload();
    await expect.poll(() => editorOrder(page)).toEqual(["B.jpg", "A.jpg"]);
  });
});
