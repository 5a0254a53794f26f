// A form sent after the session ended is not lost, with JavaScript on and
// off: the pastor signs in again and lands on the same form, filled in, with
// its photo kept; one press saves it.
import type { Page } from "@playwright/test";
import { expect, flash, hydrated, test } from "./fixtures";
import { PASTOR, addArticle, card, photo, removeTestArticles, signIn, uniqueHeader } from "./articles.helpers";
import { createAlbum, endsWith, removeTestAlbums, slug, uniqueTitle } from "./galleries.helpers";

const KEPT_MESSAGE = /^Sesja wygasła, zanim zapisano zmiany\. Nic jeszcze nie zostało zapisane/;

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test.afterEach(async ({ page, baseURL }) => {
  await removeTestArticles(page, baseURL!);
  await removeTestAlbums(page);
});

/** The session ends while the form is open: its cookie goes, the device token stays. */
async function endSession(page: Page) {
  await page.context().clearCookies({ name: /session$/ });
}

/** Signs in on the page the guard sent the browser to, and expects to be back on `form`. */
async function signInAgain(page: Page, form: RegExp) {
  await expect(page).toHaveURL(/\/strefapastora\/logowanie\?redirectTo=/);
  await page.getByLabel("Login").fill(PASTOR.email);
  await page.getByLabel("Hasło").fill(PASTOR.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(form);
}

test("a new article sent after the session ended is kept with its photo and saved with one press", async ({ page }) => {
  const header = uniqueHeader("Zachowany");
  await page.goto("/strefapastora/artykuly/dodaj");
  await page.getByLabel("Zdjęcie", { exact: true }).setInputFiles(await photo("zachowane.jpg"));
  await page.getByLabel("Nagłówek").fill(header);
  await page.getByLabel("Treść").fill("Tekst pisany zbyt długo.");
  await page.getByLabel("Data", { exact: true }).fill("2001-02-03");
  await endSession(page);
  await page.getByRole("button", { name: "dodaj", exact: true }).click();

  await signInAgain(page, /\/strefapastora\/artykuly\/dodaj\?zachowane=[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole("status").filter({ hasText: KEPT_MESSAGE })).toHaveText(
    "Sesja wygasła, zanim zapisano zmiany. Nic jeszcze nie zostało zapisane — poniżej jest Twój tekst i wybrane zdjęcie. Sprawdź go i zapisz.",
  );
  await expect(page.getByLabel("Nagłówek")).toHaveValue(header);
  await expect(page.getByLabel("Treść")).toHaveValue("Tekst pisany zbyt długo.");
  await expect(page.getByLabel("Data", { exact: true })).toHaveValue("2001-02-03");

  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(flash(page)).toHaveText("Dodano artykuł.");
  await expect(page).toHaveURL(/\/strefapastora\/artykuly$/);
  await expect(card(page, header).locator("img")).toHaveJSProperty("complete", true);
  expect(
    await card(page, header)
      .locator("img")
      .evaluate((img: HTMLImageElement) => img.naturalWidth),
  ).toBeGreaterThan(0);
});

test("an edit sent after the session ended is kept with its new photo and saved with one press", async ({ page }) => {
  const header = uniqueHeader("Edycja zachowana");
  const id = await addArticle(page, { header });
  const before = await card(page, header).locator("img").getAttribute("src");
  await page.goto(`/strefapastora/artykuly/edytuj/${id}`);
  const renamed = `${header} po zmianie`;
  await page.getByLabel("Nagłówek").fill(renamed);
  await page.getByText("Zmień zdjęcie").click();
  await page.getByLabel("Nowe zdjęcie").setInputFiles(await photo("nowe.jpg", { colour: "#aa4411" }));
  await endSession(page);
  await page.getByRole("button", { name: "zatwierdź" }).click();

  await signInAgain(page, new RegExp(`/strefapastora/artykuly/edytuj/${id}\\?zachowane=`));
  await expect(page.getByRole("status").filter({ hasText: KEPT_MESSAGE })).toContainText("i wybrane zdjęcie");
  await expect(page.getByLabel("Nagłówek")).toHaveValue(renamed);
  await expect(page.getByLabel("Zmień zdjęcie")).toBeChecked();

  await page.getByRole("button", { name: "zatwierdź" }).click();
  await expect(flash(page)).toHaveText("Zapisano zmiany.");
  const after = await card(page, renamed).locator("img").getAttribute("src");
  expect(after).not.toBe(before);
});

test("album details sent after the session ended come back into the editor and are saved with one press", async ({
  page,
}) => {
  const title = uniqueTitle("Zachowana");
  await createAlbum(page, title);
  await page.goto(`/strefapastora/galeria/edytuj/${slug(title)}`);
  const renamed = `${title} nowa`;
  await page.getByLabel("TYTUŁ").fill(renamed);
  await page.getByLabel("OPIS", { exact: true }).fill("Opis pisany zbyt długo.");
  await endSession(page);
  await page.getByRole("button", { name: "zapisz", exact: true }).click();

  // Nothing is written on the way back: the page shows the kept details, the save uses them.
  await signInAgain(page, new RegExp(`/strefapastora/galeria/edytuj/${slug(title)}\\?zachowane=`));
  await expect(flash(page)).toHaveText(
    "Sesja wygasła, zanim zapisano zmiany. Nic jeszcze nie zostało zapisane — poniżej jest Twój tekst. Sprawdź go i zapisz.",
  );
  await expect(page.getByLabel("TYTUŁ")).toHaveValue(renamed);
  await expect(page.getByLabel("OPIS", { exact: true })).toHaveValue("Opis pisany zbyt długo.");

  await page.getByRole("button", { name: "zapisz", exact: true }).click();
  await expect(flash(page)).toHaveText("Zapisano galerię.");
  await expect(page).toHaveURL(endsWith(`/strefapastora/galeria/${slug(renamed)}`));
});

test("a ministry's edit sent after the session ended comes back into its form and is saved with one press", async ({
  page,
}) => {
  const last = () => page.locator(".ministries-edit > li").last();
  await page.goto("/strefapastora/sluzby");
  // With JavaScript the script's post meets the ended session.
  await hydrated(last().locator("form.form"));
  const description = last().getByLabel("Opis (opcjonalnie)");
  const before = await description.inputValue();
  await description.fill("Opis pisany zbyt długo.");
  await endSession(page);
  await last().getByRole("button", { name: "zapisz", exact: true }).click();

  await signInAgain(page, /\/strefapastora\/sluzby\?zachowane=[A-Za-z0-9_-]{43}$/);
  await expect(page.locator("p.notice")).toHaveText(
    "Sesja wygasła, zanim zapisano zmiany. Nic jeszcze nie zostało zapisane — poniżej jest Twój tekst. Sprawdź go i zapisz.",
  );
  await expect(description).toHaveValue("Opis pisany zbyt długo.");
  await hydrated(last().locator("form.form"));
  await last().getByRole("button", { name: "zapisz", exact: true }).click();
  await expect(flash(page)).toContainText("Zapisano służbę");
  await expect(page).toHaveURL(/\/strefapastora\/sluzby$/);
  await expect(description).toHaveValue("Opis pisany zbyt długo.");

  // Back as it was, for the other specs.
  await description.fill(before);
  await last().getByRole("button", { name: "zapisz", exact: true }).click();
  await expect(flash(page)).toContainText("Zapisano służbę");
  await expect(description).toHaveValue(before);
});
