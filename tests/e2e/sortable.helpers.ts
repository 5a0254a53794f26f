// The keyboard path of the pastor's sortable lists (app/components/sortable-list.tsx).
import type { Locator, Page } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * Moves a row by keyboard on its handle: space lifts it, an arrow moves it one
 * place, space drops it, then waits until the new order is saved.
 *
 * The arrow is pressed only once the live region names the row's place: the
 * list measures its rows just after the lift, and an arrow pressed before that
 * has nowhere to go and is dropped.
 */
export async function keyboardMove(page: Page, handle: Locator, key: "ArrowUp" | "ArrowDown", place: number) {
  const live = page.locator('[id^="DndLiveRegion"]');
  await handle.focus();
  // As a hand would: the handle is in sight (focusing it scrolls there) before it is lifted.
  await expect(handle).toBeInViewport();
  await page.keyboard.press("Space");
  await expect(page.locator(".order-list li.dragging")).toHaveCount(1);
  await expect(live).toContainText(/nad miejscem \d+\./);
  await page.keyboard.press(key);
  await expect(live).toContainText(`nad miejscem ${place}.`);
  await page.keyboard.press("Space");
  await expect(page.locator(".order-list li.dragging")).toHaveCount(0);
  // Saved (and the page's data read again) once the list is no longer busy.
  await expect(page.locator(".order-list")).not.toHaveAttribute("aria-busy", "true");
}

/**
 * A mouse drag from a handle onto another row, in small steps as a hand does,
 * released once the live region names the `place` under it: a hand rests
 * there for a moment, and a release in the same instant as the last move
 * would drop the row where the list last saw it.
 */
export async function drag(page: Page, handle: Locator, target: Locator, place: number) {
  const from = (await handle.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 10, { steps: 3 });
  await page.mouse.move(to.x + from.width / 2, to.y + to.height / 2, { steps: 12 });
  await expect(page.locator('[id^="DndLiveRegion"]')).toContainText(`nad miejscem ${place}.`);
  await page.mouse.up();
  await expect(page.locator(".order-list")).not.toHaveAttribute("aria-busy", "true");
}
