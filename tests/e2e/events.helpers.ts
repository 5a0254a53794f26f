// Shared by the event specs. The e2e server is shared by every spec: these
// tests only add their own events (titles starting with "E2E "), and remove
// them afterwards.
import type { Page } from "@playwright/test";
import { expect, flash } from "./fixtures";
import { confirmDelete, purgeTestItems } from "./bin.helpers";

/** One event on the pastor's list. */
export const row = (page: Page, title: string) =>
  page.locator(".events-edit > li").filter({ has: page.getByRole("heading", { name: title }) });

/** What a run added (titles starting with "E2E ") goes to the bin, then for good. */
export async function removeTestEvents(page: Page) {
  await page.goto("/strefapastora/wydarzenia");
  if (!page.url().endsWith("/strefapastora/wydarzenia")) return;
  const left = page.locator(".events-edit > li").filter({ has: page.getByRole("heading", { name: /^E2E / }) });
  while ((await left.count()) > 0) {
    await confirmDelete(page, left.first().getByRole("button", { name: /^usuń/ }), "tak, do kosza");
    await expect(flash(page)).toContainText("do kosza");
  }
  await purgeTestItems(page);
}
