// On a slow phone the pastor can type before the page's script has run.
// React puts a text area's text and a list's choice back to what the server
// sent when it takes the page over: what was typed meanwhile must survive it.
import { expect, hydrated, signIn, test } from "./fixtures";

test("text typed and a choice made before the script runs are kept when it runs", async ({ page }) => {
  await signIn(page);
  // The page's scripts wait until the typing is done, as on a slow network.
  let release!: () => void;
  const scriptsMayLoad = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\.js(\?|$)/, async (route) => {
    await scriptsMayLoad;
    await route.continue();
  });

  await page.goto("/strefapastora/swiadectwa/edytuj/1", { waitUntil: "commit" });
  const text = page.getByLabel(/^Treść/);
  await expect(text).not.toHaveValue("");
  await text.fill("Napisane, zanim strona była gotowa.");
  release();
  await hydrated(page.locator("form.form"));
  await expect(text).toHaveValue("Napisane, zanim strona była gotowa.");

  let releaseAgain!: () => void;
  const again = new Promise<void>((resolve) => (releaseAgain = resolve));
  await page.unrouteAll();
  await page.route(/\.js(\?|$)/, async (route) => {
    await again;
    await route.continue();
  });
  await page.goto("/strefapastora/wydarzenia/dodaj", { waitUntil: "commit" });
  const week = page.getByLabel("Który w miesiącu");
  await week.selectOption({ index: 2 });
  const chosen = await week.inputValue();
  releaseAgain();
  await hydrated(page.locator("form.form"));
  await expect(week).toHaveValue(chosen);
});
