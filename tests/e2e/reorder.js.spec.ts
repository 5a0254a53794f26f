// Dragging with JavaScript on top of the ↑/↓ buttons: a ministry moved with
// the keyboard (space, arrow, space on its handle) and a testimony dragged
// with the mouse; a second browser sees the new order on /sluzby and /onas at
// once, and the page says what moved.
import type { Page } from "@playwright/test";
import { expect, flash, signIn, test } from "./fixtures";
import { drag, keyboardMove } from "./sortable.helpers";

async function titles(visitor: Page, path: string, selector: string) {
  await visitor.goto(path);
  return visitor.locator(selector).allTextContents();
}

test("a ministry moved by keyboard on its handle is shown first on /sluzby at once, and moved back", async ({
  page,
  browser,
}) => {
  const visitor = await browser.newPage();
  const names = ".ministries > li h2";
  const [first, second] = await titles(visitor, "/sluzby", names);

  await signIn(page);
  await page.goto("/strefapastora/sluzby");
  const rows = page.locator(".ministries-edit > li");
  await keyboardMove(page, page.getByRole("button", { name: `przeciągnij „${second}”` }), "ArrowUp", 1);
  await expect(flash(page)).toHaveText(`Przesunięto służbę „${second}”.`);
  await expect(rows.nth(0)).toHaveAttribute("aria-label", second!);
  expect((await titles(visitor, "/sluzby", names)).slice(0, 2)).toEqual([second, first]);

  // Back as it was, for the other specs: the same with the first one, downwards.
  await keyboardMove(page, page.getByRole("button", { name: `przeciągnij „${second}”` }), "ArrowDown", 2);
  // The same message as before: the row's place tells that this move is done.
  await expect(rows.nth(1)).toHaveAttribute("aria-label", second!);
  await expect(flash(page)).toHaveText(`Przesunięto służbę „${second}”.`);
  expect((await titles(visitor, "/sluzby", names)).slice(0, 2)).toEqual([first, second]);
  await visitor.close();
});

// A screen tall enough to show both rows: a pointer held near the screen's
// edge scrolls the list on, as it should, and the drop would land further on.
test.describe("on a tall screen", () => {
  test.use({ viewport: { width: 1280, height: 2400 } });

  test("a testimony dragged with the mouse takes its new place on /onas at once", async ({ page, browser }) => {
    const visitor = await browser.newPage();
    const cards = "section[aria-labelledby=swiadectwa] .cards > li h3";
    const before = await titles(visitor, "/onas", cards);

    await signIn(page);
    await page.goto("/strefapastora/swiadectwa");
    const rows = page.locator(".testimonies-edit > li");
    await drag(page, page.getByRole("button", { name: `przeciągnij „${before[0]}”` }), rows.nth(2), 3);
    await expect(flash(page)).toHaveText(`Przesunięto świadectwo „${before[0]}”.`);
    await expect(rows.nth(2)).toHaveAttribute("aria-label", before[0]);
    expect(await titles(visitor, "/onas", cards)).toEqual([before[1], before[2], before[0], ...before.slice(3)]);

    // Back with the ↑ buttons, which stay beside the handles. The row moves
    // before the server answers (an optimistic save), so each move waits for
    // the answer to its post before the next, and before /onas is read.
    for (const place of [1, 0]) {
      const saved = page.waitForResponse(
        (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/strefapastora/swiadectwa"),
      );
      await page.getByRole("button", { name: `przesuń „${before[0]}” wyżej` }).click();
      await expect(rows.nth(place)).toHaveAttribute("aria-label", before[0]);
      await saved;
    }
    expect(await titles(visitor, "/onas", cards)).toEqual(before);
    await visitor.close();
  });
});
