// The pastor's articles, with JavaScript on and off: add, view, edit (with
// and without 'Zmień zdjęcie'), delete after confirmation, and every
// validation message of the original site.
import { expect, flash, test } from "./fixtures";
import { addArticle, card, photo, removeTestArticles, signIn, textFile, uniqueHeader } from "./articles.helpers";

const withJs = () => test.info().project.name === "js";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test.afterEach(async ({ page, baseURL }) => {
  await removeTestArticles(page, baseURL!);
});

test("the list shows the e-mail, its links and the cards newest first with their buttons", async ({ page }) => {
  await page.getByRole("link", { name: "lista artykułów" }).click();
  await expect(page).toHaveURL(/\/strefapastora\/artykuly$/);
  await expect(page.getByText("pastor@example.org")).toBeVisible();
  await expect(page.getByRole("button", { name: "wyloguj się" })).toBeVisible();
  await expect(page.getByRole("link", { name: "dodaj nowy artykuł" })).toHaveAttribute(
    "href",
    "/strefapastora/artykuly/dodaj",
  );
  await expect(page.getByRole("link", { name: "wróć" })).toHaveAttribute("href", "/strefapastora");

  const headers = await page.locator(".cards > li h2").allTextContents();
  const order = ["Chrzest wiary", "Obóz młodzieżowy – zapisy", "Nabożeństwo dziękczynne"].map((h) =>
    headers.indexOf(h),
  );
  expect(order.every((i) => i >= 0)).toBe(true);
  expect([...order].sort((a, b) => a - b)).toEqual(order);

  const demo = card(page, "Chrzest wiary");
  await expect(demo.locator("img")).toHaveJSProperty("complete", true);
  await expect(demo.locator(".date")).toHaveText("2025-06-08");
  await expect(demo).toContainText("Z radością informujemy");
  await expect(demo.getByRole("link", { name: /^pokaż/ })).toHaveAttribute(
    "href",
    "/strefapastora/artykuly/1740000000000",
  );
  await expect(demo.getByRole("link", { name: /^edytuj/ })).toHaveAttribute(
    "href",
    "/strefapastora/artykuly/edytuj/1740000000000",
  );
  await expect(demo.getByRole("button", { name: /^usuń/ })).toBeVisible();
});

test("adds an article with a photo; the pastor and the public see it", async ({ page }) => {
  const header = uniqueHeader("Dodawanie");
  await page.goto("/strefapastora/artykuly");
  await page.getByRole("link", { name: "dodaj nowy artykuł" }).click();
  await expect(page).toHaveURL(/\/strefapastora\/artykuly\/dodaj$/);
  await expect(page.getByRole("link", { name: "wróć" })).toHaveAttribute("href", "/strefapastora/artykuly");
  await expect(page.getByLabel("Zdjęcie", { exact: true })).toHaveAttribute(
    "accept",
    "image/jpeg,image/png,image/webp",
  );
  await expect(page.getByLabel("Treść")).toHaveJSProperty("tagName", "TEXTAREA");
  await expect(page.getByLabel("Data", { exact: true })).toHaveAttribute("type", "date");

  await page.getByLabel("Zdjęcie", { exact: true }).setInputFiles(await photo("IMG_0042.JPG"));
  await page.getByLabel("Nagłówek").fill(header);
  await page.getByLabel("Treść").fill("Pierwszy akapit.\n\nWięcej: https://example.org/ogloszenia");
  await page.getByLabel("Data", { exact: true }).fill("2001-02-03");
  await page.getByRole("button", { name: "dodaj", exact: true }).click();

  await expect(page).toHaveURL(/\/strefapastora\/artykuly$/);
  await expect(flash(page)).toHaveText("Dodano artykuł.");
  const added = card(page, header);
  await expect(added.locator(".date")).toHaveText("2001-02-03");
  await expect(added.locator("img")).toHaveJSProperty("complete", true);
  expect(await added.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // The message is shown once.
  await page.reload();
  await expect(page.getByRole("status")).toHaveCount(0);

  await card(page, header)
    .getByRole("link", { name: /^pokaż/ })
    .click();
  await expect(page).toHaveURL(/\/strefapastora\/artykuly\/\d+$/);
  const id = page.url().split("/").pop()!;
  await expect(page.getByRole("heading", { level: 1, name: header })).toBeVisible();
  await expect(page.getByRole("link", { name: "wróć" })).toHaveAttribute("href", "/strefapastora/artykuly");
  await expect(page.getByRole("link", { name: "https://example.org/ogloszenia" })).toHaveAttribute("target", "_blank");
  await expect(page.locator(".article-image")).toHaveJSProperty("complete", true);

  await page.goto(`/aktualnosci/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: header })).toBeVisible();
  await expect(page.getByText("Pierwszy akapit.")).toBeVisible();
  await expect(page.getByRole("link", { name: "wróć" })).toHaveAttribute("href", "/aktualnosci");
});

test("an incomplete form says 'Wypełnij wszystkie pola' and keeps what was typed", async ({ page }) => {
  const header = uniqueHeader("Niepełny");
  await page.goto("/strefapastora/artykuly/dodaj");
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText("Wypełnij wszystkie pola");

  await page.getByLabel("Zdjęcie", { exact: true }).setInputFiles(await photo());
  await page.getByLabel("Nagłówek").fill(header);
  await page.getByLabel("Treść").fill("Linia pierwsza\nLinia druga");
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText("Wypełnij wszystkie pola");
  await expect(page.getByLabel("Nagłówek")).toHaveValue(header);
  await expect(page.getByLabel("Treść")).toHaveValue("Linia pierwsza\nLinia druga");
  const chosen = () =>
    page.getByLabel("Zdjęcie", { exact: true }).evaluate((input: HTMLInputElement) => input.files?.length ?? 0);
  if (withJs()) {
    // Sent in the background: the page, and the chosen photo, stay.
    expect(await chosen()).toBe(1);
  } else {
    // A browser never refills a file input: the page asks for the photo again.
    await expect(page.getByText("Wybierz zdjęcie ponownie")).toBeVisible();
    expect(await chosen()).toBe(0);
    await page.getByLabel("Zdjęcie", { exact: true }).setInputFiles(await photo());
  }
  await page.getByLabel("Data", { exact: true }).fill("2001-03-04");
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(flash(page)).toHaveText("Dodano artykuł.");
  await expect(card(page, header)).toHaveCount(1);
});

test("a file that is not a photo is refused with the pipeline's message, keeping the text", async ({ page }) => {
  const header = uniqueHeader("Nie zdjęcie");
  await page.goto("/strefapastora/artykuly/dodaj");
  await page.getByLabel("Zdjęcie", { exact: true }).setInputFiles(textFile("wakacje.jpg"));
  await page.getByLabel("Nagłówek").fill(header);
  await page.getByLabel("Treść").fill("Treść zostaje.");
  await page.getByLabel("Data", { exact: true }).fill("2001-04-05");
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText("To nie jest zdjęcie w formacie JPEG, PNG ani WebP.");
  await expect(page.getByLabel("Nagłówek")).toHaveValue(header);
  await expect(page.getByLabel("Treść")).toHaveValue("Treść zostaje.");
  await expect(page.getByLabel("Data", { exact: true })).toHaveValue("2001-04-05");
  await page.goto("/strefapastora/artykuly");
  await expect(card(page, header)).toHaveCount(0);
});

test("edits header, date and text and keeps the photo when 'Zmień zdjęcie' is not ticked", async ({ page }) => {
  const header = uniqueHeader("Edycja");
  await addArticle(page, { header, text: "Stara treść." });
  const src = await card(page, header).locator("img").getAttribute("src");

  await card(page, header)
    .getByRole("link", { name: /^edytuj/ })
    .click();
  await expect(page).toHaveURL(/\/strefapastora\/artykuly\/edytuj\/\d+$/);
  await expect(page.getByRole("link", { name: "wróć" })).toHaveAttribute("href", "/strefapastora/artykuly");
  await expect(page.getByLabel("Nagłówek")).toHaveValue(header);
  await expect(page.getByLabel("Data", { exact: true })).toHaveValue("2001-01-02");
  await expect(page.getByLabel("Treść")).toHaveValue("Stara treść.");
  await expect(page.getByLabel("Zmień zdjęcie")).not.toBeChecked();
  await expect(page.getByLabel("Nowe zdjęcie")).toBeHidden();
  await expect(page.getByRole("img", { name: "Obecne zdjęcie" })).toBeHidden();

  const edited = `${header} (zmieniony)`;
  await page.getByLabel("Nagłówek").fill(edited);
  await page.getByLabel("Data", { exact: true }).fill("2001-05-06");
  await page.getByLabel("Treść").fill("Nowa treść.\nDruga linia.");
  await page.getByRole("button", { name: "zatwierdź" }).click();

  await expect(page).toHaveURL(/\/strefapastora\/artykuly$/);
  await expect(flash(page)).toHaveText("Zapisano zmiany.");
  await expect(card(page, header)).toHaveCount(0);
  const after = card(page, edited);
  await expect(after.locator(".date")).toHaveText("2001-05-06");
  await expect(after).toContainText("Nowa treść. Druga linia.");
  await expect(after.locator("img")).toHaveAttribute("src", src!);
});

test("replaces the photo when 'Zmień zdjęcie' is ticked and a photo chosen", async ({ page }) => {
  const header = uniqueHeader("Nowe zdjęcie");
  await addArticle(page, { header, image: await photo("pierwsze.jpg", { colour: "#aa3333" }) });
  const before = await card(page, header).locator("img").getAttribute("src");
  await card(page, header)
    .getByRole("link", { name: /^edytuj/ })
    .click();

  await page.getByLabel("Zmień zdjęcie").check();
  const current = page.getByRole("img", { name: "Obecne zdjęcie" });
  await expect(current).toBeVisible();
  await expect(current).toHaveJSProperty("complete", true);
  expect((await current.boundingBox())?.height).toBeCloseTo(150, 0);
  await page
    .getByLabel("Nowe zdjęcie")
    .setInputFiles(await photo("drugie.jpg", { width: 900, height: 1200, colour: "#33aa33" }));
  await page.getByRole("button", { name: "zatwierdź" }).click();

  await expect(flash(page)).toHaveText("Zapisano zmiany.");
  const img = card(page, header).locator("img");
  await expect(img).not.toHaveAttribute("src", before!);
  await expect(img).toHaveAttribute("src", /drugie/);
  await expect(img).toHaveJSProperty("complete", true);
  // The old photo's files are gone.
  expect((await page.request.get(before!)).status()).toBe(404);
});

test("the edit form says what is wrong and keeps what was typed", async ({ page }) => {
  const header = uniqueHeader("Błędy edycji");
  await addArticle(page, { header });
  await card(page, header)
    .getByRole("link", { name: /^edytuj/ })
    .click();

  await page.getByLabel("Nagłówek").fill("   ");
  await page.getByLabel("Treść").fill("Treść, która zostaje.");
  await page.getByRole("button", { name: "zatwierdź" }).click();
  await expect(page.getByRole("alert")).toHaveText("Tytuł i treść nie mogą być puste!");
  await expect(page.getByLabel("Treść")).toHaveValue("Treść, która zostaje.");

  await page.getByLabel("Nagłówek").fill(`${header} bis`);
  await page.getByLabel("Treść").fill("  ");
  await page.getByRole("button", { name: "zatwierdź" }).click();
  await expect(page.getByRole("alert")).toHaveText("Tytuł i treść nie mogą być puste!");
  await expect(page.getByLabel("Nagłówek")).toHaveValue(`${header} bis`);

  await page.getByLabel("Treść").fill("Treść.");
  await page.getByLabel("Zmień zdjęcie").check();
  await page.getByRole("button", { name: "zatwierdź" }).click();
  await expect(page.getByRole("alert")).toHaveText("Jeśli chcesz zmienić zdjęcie, wybierz zdjęcie!");
  await expect(page.getByLabel("Zmień zdjęcie")).toBeChecked();
  await expect(page.getByLabel("Nowe zdjęcie")).toBeVisible();

  // Nothing was saved meanwhile.
  await page.goto("/strefapastora/artykuly");
  await expect(card(page, header)).toHaveCount(1);
  await expect(card(page, `${header} bis`)).toHaveCount(0);
});

test("an older free-text date is shown beside the empty date field", async ({ page }) => {
  // The demo article with a legacy date is only looked at, never saved.
  await page.goto("/strefapastora/artykuly/edytuj/1600000000000");
  await expect(page.getByLabel("Data", { exact: true })).toHaveValue("");
  await expect(
    page.getByText("Obecna data: „12 września 2020, sobota”. Zostanie zachowana, jeśli nie wybierzesz nowej."),
  ).toBeVisible();
});

test("deletes an article only after the question 'Czy napewno usunąć kartę …?'", async ({ page }) => {
  const header = uniqueHeader("Usuwanie");
  await addArticle(page, { header });
  const question = `Czy napewno usunąć kartę "${header}"?`;

  // First the pastor changes their mind.
  if (withJs()) {
    page.once("dialog", (dialog) => {
      expect(dialog.type()).toBe("confirm");
      expect(dialog.message()).toBe(question);
      void dialog.dismiss();
    });
    await card(page, header).getByRole("button", { name: /^usuń/ }).click();
  } else {
    await card(page, header).getByRole("button", { name: /^usuń/ }).click();
    await expect(page.getByRole("alertdialog")).toContainText(question);
    await page.getByRole("link", { name: "anuluj" }).click();
  }
  await expect(page).toHaveURL(/\/strefapastora\/artykuly$/);
  await expect(card(page, header)).toHaveCount(1);

  // Then confirms.
  if (withJs()) {
    page.once("dialog", (dialog) => void dialog.accept());
    await card(page, header).getByRole("button", { name: /^usuń/ }).click();
  } else {
    await card(page, header).getByRole("button", { name: /^usuń/ }).click();
    await expect(page.getByRole("alertdialog")).toContainText(question);
    await page.getByRole("button", { name: "tak, usuń" }).click();
  }
  await expect(page).toHaveURL(/\/strefapastora\/artykuly$/);
  await expect(flash(page)).toHaveText("Przeniesiono artykuł do kosza.");
  await expect(card(page, header)).toHaveCount(0);
});

test("an unknown article shows 'nie ma takiego dokumentu' with a way back", async ({ page }) => {
  for (const path of ["/strefapastora/artykuly/123", "/strefapastora/artykuly/edytuj/123"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByText("nie ma takiego dokumentu")).toBeVisible();
    await expect(page.getByRole("link", { name: "wróć" })).toHaveAttribute("href", "/strefapastora/artykuly");
  }
});
