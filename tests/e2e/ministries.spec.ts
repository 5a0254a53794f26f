// 'Służby' in the pastor area, with JavaScript on and off: a ministry moved
// up with ↑ is first on /sluzby for a second browser at once, then moved back.
import { expect, flash, signIn, test } from "./fixtures";

test("a ministry moved up is shown first on /sluzby at once", async ({ page, browser, baseURL }) => {
  const visitorContext = await browser.newContext({ baseURL, javaScriptEnabled: test.info().project.name === "js" });
  const visitor = await visitorContext.newPage();
  await visitor.goto("/sluzby");
  const names = visitor.locator(".ministries > li h2");
  const [first, second] = [await names.nth(0).textContent(), await names.nth(1).textContent()];

  await signIn(page);
  await page.goto("/strefapastora/sluzby");
  await page.getByRole("button", { name: `przesuń „${second}” wyżej` }).click();
  await expect(flash(page)).toContainText(`Przesunięto służbę „${second}”`);
  await visitor.goto("/sluzby");
  await expect(names.nth(0)).toHaveText(second!);
  await expect(names.nth(1)).toHaveText(first!);

  // Back as it was, for the other specs.
  await page.getByRole("button", { name: `przesuń „${first}” wyżej` }).click();
  await expect(flash(page)).toContainText(`Przesunięto służbę „${first}”`);
  await visitor.goto("/sluzby");
  await expect(names.nth(0)).toHaveText(first!);
  await visitorContext.close();
});
