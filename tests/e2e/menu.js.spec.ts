import { expect, test } from "./fixtures";

test("with JavaScript the open menu closes on a link click and when the window gets wide", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/kontakt");
  await page.locator("label.nav-toggle-label").click();
  const nav = page.getByRole("navigation", { name: "Menu główne" });
  // An in-page link: the page stays, the menu closes.
  await page.evaluate(() => {
    const a = document.querySelector<HTMLAnchorElement>("#site-nav a")!;
    a.addEventListener("click", (e) => e.preventDefault());
    a.click();
  });
  await expect(page.locator("#nav-toggle")).not.toBeChecked();
  await expect(nav).toBeHidden();
  await page.locator("label.nav-toggle-label").click();
  await expect(page.locator("#nav-toggle")).toBeChecked();
  await page.setViewportSize({ width: 1100, height: 740 });
  await expect(page.locator("#nav-toggle")).not.toBeChecked();
  await page.setViewportSize({ width: 375, height: 740 });
  await expect(nav).toBeHidden();
});
