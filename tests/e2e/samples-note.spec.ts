// The panel home's note of sample numbers, with JavaScript on and off: it
// names the REGON while that is a sample and links to 'Dane zboru'; a real
// REGON saved there drops it from the note, and the sample typed back (this
// server is a demo, which shows samples to visitors) puts it back.
import type { Page } from "@playwright/test";
import { sampleFacts } from "../../app/content/church";
import { expect, flash, signIn, test } from "./fixtures";

const note = (page: Page) => page.locator("#samples-to-fill");

async function saveRegon(page: Page, regon: string) {
  await page.goto("/strefapastora/dane-zboru");
  await page.getByLabel("REGON").fill(regon);
  await page.getByRole("button", { name: "zapisz" }).first().click();
  await expect(flash(page)).toContainText("Zapisano: REGON");
}

test("the panel lists the sample numbers to fill in until real ones are saved", async ({ page }) => {
  await signIn(page);
  await page.goto("/strefapastora");
  await expect(note(page)).toContainText("Do uzupełnienia:");
  await expect(note(page)).toContainText("NIP, REGON.");
  await note(page).getByRole("link", { name: "Uzupełnij dane zboru" }).click();
  await expect(page).toHaveURL(/\/strefapastora\/dane-zboru$/);
  await expect(page.getByText("REGON (przykładowe)")).toBeVisible();

  await saveRegon(page, "123456785");
  await page.goto("/strefapastora");
  await expect(note(page)).toContainText("NIP.");
  await expect(note(page)).not.toContainText("REGON");

  // The demo shows its samples to visitors, so the sample typed back is on /kontakt, and in the note again.
  await saveRegon(page, sampleFacts.regon);
  await page.goto("/strefapastora");
  await expect(note(page)).toContainText("NIP, REGON.");
  await page.goto("/kontakt");
  await expect(page.getByText(sampleFacts.regon, { exact: true })).toBeVisible();
});
