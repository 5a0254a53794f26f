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
