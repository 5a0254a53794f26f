// Shared by the bin and history specs: deleting from the pastor's lists as
// the pastor does, the bin's rows, and emptying the bin of what tests made.
import type { Page } from "@playwright/test";
import { expect, hydrated, test } from "./fixtures";
import { attrAfter, readPastorList } from "./pastor-lists.helpers";

export const withJs = () => test.info().project.name === "js";

/** One row of the bin. */
export function binRow(page: Page, title: string) {
  return page.locator(".bin-list > li").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
}

/**
 * Presses a delete button that asks first and says yes: the browser's dialog
 * with JavaScript, the server's confirmation page without.
 */
export async function confirmDelete(page: Page, button: ReturnType<Page["getByRole"]>, yes = "tak, usuń") {
  if (withJs()) {
    await hydrated(button);
    page.once("dialog", (dialog) => void dialog.accept());
    await button.click();
  } else {
    await button.click();
    await expect(page.getByRole("alertdialog")).toBeVisible();
    await page.getByRole("button", { name: yes, exact: true }).click();
  }
}

/** Deletes for good every bin item whose title starts with `prefix`, straight through the bin's action. */
export async function purgeTestItems(page: Page, prefix = "E2E ") {
  const list = await readPastorList(page, "/strefapastora/kosz", prefix);
  if (!list) return; // not signed in
  for (const row of list.rows) {
    const item = {
      kind: attrAfter(row, row.indexOf(' name="kind"'), "value")!,
      id: attrAfter(row, row.indexOf(' name="id"'), "value")!,
    };
    expect(item.id, `a bin row's id (${item.kind})`).toBeTruthy();
    const res = await page.request.post("/strefapastora/kosz", {
      form: { csrf: list.csrf, intent: "purge", confirmed: "1", ...item },
      headers: { Origin: list.origin },
      maxRedirects: 0,
    });
    expect(res.status(), `emptying the bin of ${item.kind} ${item.id}`).toBe(302);
  }
}
