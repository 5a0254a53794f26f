// Albums in the pastor area, with JavaScript on and off: the same steps must
// work both ways (uploads kept on the server between page loads).
import {
  OLD_DATE,
  addPhotos,
  createAlbum,
  editorOrder,
  endsWith,
  fillAlbum,
  heic,
  photo,
  photoButton,
  photoName,
  removeTestAlbums,
  signIn,
  slug,
  uniqueTitle,
} from "./galleries.helpers";
import { expect, flash, test } from "./fixtures";

const QUESTION = "Czy napewno chcesz usunąć galerię?";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test.afterEach(async ({ page }) => {
  await removeTestAlbums(page);
});

/** Presses 'usuń' and confirms: the browser's dialog with JavaScript, a confirmation page without. */
async function deleteAlbum(page: import("@playwright/test").Page) {
  if (test.info().project.name === "js") {
    page.once("dialog", async (dialog) => {
      expect(dialog.message()).toBe(QUESTION);
      await dialog.accept();
    });
    await page.getByRole("button", { name: "usuń" }).click();
  } else {
    await page.getByRole("button", { name: "usuń" }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm).toContainText(QUESTION);
    await confirm.getByRole("button", { name: "tak, usuń" }).click();
  }
  await expect(page).toHaveURL(endsWith("/strefapastora/galeria"));
}

test("create with three photos, reorder, save, see the order publicly, rename, delete", async ({ page }) => {
  test.setTimeout(90_000);
  const title = uniqueTitle("Obóz");
  await page.goto("/strefapastora/galeria");
  await expect(page.getByRole("link", { name: "wróć" })).toHaveAttribute("href", "/strefapastora");
  await page.getByRole("link", { name: "dodaj", exact: true }).click();
  await expect(page).toHaveURL(endsWith("/strefapastora/galeria/dodaj"));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dodawanie galerii zdjęć");
  // DATA starts at today's date in Warsaw.
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Warsaw" }).format(new Date());
  await expect(page.getByLabel("DATA", { exact: true })).toHaveValue(today);

  await fillAlbum(page, { title, description: "Trzy dni w górach.\nDruga linia." });
  await addPhotos(
    page,
    [await photo("A.jpg", 0), await photo("B.jpg", 120), await photo("C.jpg", 240)],
    "3 z 3 zdjęć dodano",
  );
  await expect.poll(() => editorOrder(page)).toEqual(["A.jpg", "B.jpg", "C.jpg"]);
  // The typed values came back with the list.
  await expect(page.getByLabel("TYTUŁ")).toHaveValue(title);
  await expect(page.getByLabel("OPIS", { exact: true })).toHaveValue("Trzy dni w górach.\nDruga linia.");
  await expect(page.getByLabel("DATA", { exact: true })).toHaveValue(OLD_DATE);
  await expect(page.locator(".editor-images img").first()).toHaveAttribute("width", "50");

  await photoButton(page, "w dół", "A.jpg").click();
  await expect.poll(() => editorOrder(page)).toEqual(["B.jpg", "A.jpg", "C.jpg"]);
  await photoButton(page, "na okładkę", "C.jpg").click();
  await expect.poll(() => editorOrder(page)).toEqual(["C.jpg", "B.jpg", "A.jpg"]);
  await photoButton(page, "w górę", "A.jpg").click();
  await expect.poll(() => editorOrder(page)).toEqual(["C.jpg", "A.jpg", "B.jpg"]);
  await expect(photoButton(page, "w górę", "C.jpg")).toBeDisabled();

  await page.getByRole("button", { name: "zapisz", exact: true }).click();
  await expect(page).toHaveURL(endsWith(`/strefapastora/galeria/${slug(title)}`));
  await expect(flash(page)).toHaveText("Zapisano galerię.");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page.locator(".photo-grid a")).toHaveCount(3);

  // The public album shows the saved order; each photo links to its large version.
  await page.goto(`/galeria/${slug(title)}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  const hrefs = await page.locator(".photo-grid a").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
  expect(hrefs.map((h) => photoName(h!))).toEqual(["C.jpg", "A.jpg", "B.jpg"]);
  await expect(page.locator(".photo-grid img").first()).toHaveAttribute("srcset", /-800\.webp 800w/);

  // Rename.
  const renamed = `${title} – po zmianie`;
  await page.goto(`/strefapastora/galeria/${slug(title)}`);
  await page.getByRole("link", { name: "edytuj" }).click();
  await expect(page).toHaveURL(endsWith(`/strefapastora/galeria/edytuj/${slug(title)}`));
  await expect(page.getByLabel("TYTUŁ")).toHaveValue(title);
  expect(await editorOrder(page)).toEqual(["C.jpg", "A.jpg", "B.jpg"]);
  await page.getByLabel("TYTUŁ").fill(renamed);
  await page.getByRole("button", { name: "zapisz", exact: true }).click();
  await expect(page).toHaveURL(endsWith(`/strefapastora/galeria/${slug(renamed)}`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(renamed);
  await page.goto(`/galeria/${slug(title)}`);
  await expect(page).toHaveURL(endsWith("/galeria"));
  await page.goto(`/galeria/${slug(renamed)}`);
  await expect(page.locator(".photo-grid a")).toHaveCount(3);

  // Delete.
  await page.goto(`/strefapastora/galeria/${slug(renamed)}`);
  await deleteAlbum(page);
  await expect(flash(page)).toHaveText(`Przeniesiono galerię „${renamed}” do kosza.`);
  await expect(page.getByRole("heading", { name: renamed })).toHaveCount(0);
  await page.goto(`/galeria/${slug(renamed)}`);
  await expect(page).toHaveURL(endsWith("/galeria"));
});

test("a title that exists is refused on add and on rename, and no album is lost", async ({ page }) => {
  test.setTimeout(60_000);
  const first = uniqueTitle("Pierwsza");
  const second = uniqueTitle("Druga");
  await createAlbum(page, first, [await photo("jeden.jpg")]);
  await createAlbum(page, second);

  // Add.
  await page.goto("/strefapastora/galeria/dodaj");
  await fillAlbum(page, { title: first, description: "Nie powinien powstać." });
  await page.getByRole("button", { name: "zapisz", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText("Jest już galeria o podanym tytule!");
  await expect(page.getByLabel("TYTUŁ")).toHaveValue(first);
  await expect(page.getByLabel("OPIS", { exact: true })).toHaveValue("Nie powinien powstać.");

  // Rename onto another album's title, ours and a demo album.
  for (const taken of [first, "Piknik zborowy 2025"]) {
    await page.goto(`/strefapastora/galeria/edytuj/${slug(second)}`);
    await page.getByLabel("TYTUŁ").fill(taken);
    await page.getByRole("button", { name: "zapisz", exact: true }).click();
    await expect(page.getByRole("alert")).toHaveText("Jest już galeria o podanym tytule!");
    await expect(page.getByLabel("TYTUŁ")).toHaveValue(taken);
  }

  await page.goto(`/strefapastora/galeria/${slug(first)}`);
  await expect(page.locator(".photo-grid a")).toHaveCount(1);
  await page.goto(`/strefapastora/galeria/${slug(second)}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(second);
  await page.goto("/galeria/Piknik%20zborowy%202025");
  await expect(page.locator(".photo-grid a")).toHaveCount(5);
});

test("a title with / ? # & % + and Polish letters works on every page", async ({ page }) => {
  test.setTimeout(60_000);
  const title = uniqueTitle("Zażółć / gęślą? #jaźń & 100% + Łódź");
  await createAlbum(page, title, [await photo("łąka.jpg")]);

  await page.goto("/strefapastora/galeria");
  const row = page.locator(".album-list > li").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
  await row.getByRole("link", { name: /^szczegóły/ }).click();
  await expect(page).toHaveURL(endsWith(`/strefapastora/galeria/${slug(title)}`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);

  await page.getByRole("link", { name: "edytuj" }).click();
  await expect(page.getByLabel("TYTUŁ")).toHaveValue(title);
  // A change through the editor keeps the album's address.
  await addPhotos(page, [await photo("drugie.jpg", 30)], "1 z 1 zdjęcia dodano");
  await expect.poll(() => editorOrder(page)).toEqual(["łąka.jpg", "drugie.jpg"]);
  await page.getByRole("button", { name: "zapisz", exact: true }).click();
  await expect(page).toHaveURL(endsWith(`/strefapastora/galeria/${slug(title)}`));
  await expect(page.locator(".photo-grid a")).toHaveCount(2);

  await page.goto("/galeria");
  const card = page.locator(".cards > li").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
  await card.getByRole("link", { name: /szczegóły/ }).click();
  await expect(page).toHaveURL(endsWith(`/galeria/${slug(title)}`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page.locator(".photo-grid a")).toHaveCount(2);

  await page.goto(`/strefapastora/galeria/${slug(title)}`);
  await deleteAlbum(page);
});

test("a batch with a refused file adds the others and names the refused one", async ({ page }) => {
  test.setTimeout(60_000);
  const title = uniqueTitle("Partia");
  await page.goto("/strefapastora/galeria/dodaj");
  await fillAlbum(page, { title });
  await addPhotos(
    page,
    [
      await photo("IMG_0040.JPG", 10),
      await photo("IMG_0041.JPG", 70),
      heic("IMG_0042.HEIC"),
      await photo("IMG_0043.JPG", 130),
    ],
    "3 z 4 zdjęć dodano; IMG_0042.HEIC: format HEIC nie jest obsługiwany",
  );
  await expect(page.locator(".upload-report").first()).toContainText("„Najbardziej zgodne”");
  await expect.poll(() => editorOrder(page)).toEqual(["IMG_0040.JPG", "IMG_0041.JPG", "IMG_0043.JPG"]);
  await page.getByRole("button", { name: "zapisz", exact: true }).click();
  await expect(page).toHaveURL(endsWith(`/strefapastora/galeria/${slug(title)}`));
  await expect(page.locator(".photo-grid a")).toHaveCount(3);
});

test("an empty or whitespace-only title is refused in Polish, keeping the photos", async ({ page }) => {
  await page.goto("/strefapastora/galeria/dodaj");
  await addPhotos(page, [await photo("a.jpg")], "1 z 1 zdjęcia dodano");
  await page.getByLabel("TYTUŁ").fill("   ");
  await page.getByRole("button", { name: "zapisz", exact: true }).click();
  await expect(page.locator(".field-error")).toHaveText("Podaj tytuł galerii.");
  await expect(page.getByLabel("TYTUŁ")).toHaveAttribute("aria-invalid", "true");
  await expect.poll(() => editorOrder(page)).toEqual(["a.jpg"]);
});

test("an unknown album sends the pastor to the list", async ({ page }) => {
  for (const path of ["/strefapastora/galeria/Nie%20ma%20takiej", "/strefapastora/galeria/edytuj/Nie%20ma%20takiej"]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(endsWith("/strefapastora/galeria"));
  }
});

test("eleven photos at once: one request each with JavaScript, a request to send them in parts without", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const title = uniqueTitle("Jedenaście");
  await page.goto("/strefapastora/galeria/dodaj");
  await fillAlbum(page, { title });
  const files = await Promise.all(
    Array.from({ length: 11 }, (_, i) => photo(`IMG_${100 + i}.jpg`, i * 30, { width: 200, height: 150 })),
  );
  await page.getByLabel("Wybierz zdjęcia").setInputFiles(files);
  await page.getByRole("button", { name: "dodaj zdjęcie" }).click();
  if (test.info().project.name === "js") {
    await expect(page.locator(".upload-report")).toContainText("11 z 11 zdjęć dodano");
    await expect.poll(() => editorOrder(page)).toEqual(files.map((f) => f.name));
  } else {
    // The server answers at once, without processing any of them, and keeps what was typed.
    await expect(page.getByRole("alert")).toHaveText(
      "Za dużo plików naraz (maksymalnie 10). Wyślij je w kilku częściach.",
    );
    await expect(page.getByLabel("TYTUŁ")).toHaveValue(title);
    await expect(page.locator(".editor-images > li")).toHaveCount(0);
    await addPhotos(page, files.slice(0, 10), "10 z 10 zdjęć dodano");
    await addPhotos(page, files.slice(10), "1 z 1 zdjęcia dodano");
    expect(await editorOrder(page)).toEqual(files.map((f) => f.name));
  }
});

test("each photo can be described for screen readers; the rest are named by album and position", async ({ page }) => {
  const title = uniqueTitle("Opisy");
  await createAlbum(page, title, [await photo("A.jpg", 0), await photo("B.jpg", 120)]);
  await page.getByRole("link", { name: "edytuj" }).click();
  const describeField = (name: string) => page.getByLabel(new RegExp(`^opis zdjęcia dla niewidomych\\s*: ${name}$`));
  await describeField("A.jpg").fill("Dzieci bawią się na łące");
  // Moving the photo keeps what was typed for it.
  await photoButton(page, "w dół", "A.jpg").click();
  await expect.poll(() => editorOrder(page)).toEqual(["B.jpg", "A.jpg"]);
  await expect(describeField("A.jpg")).toHaveValue("Dzieci bawią się na łące");
  await expect(describeField("B.jpg")).toHaveValue("");
  await page.getByRole("button", { name: "zapisz", exact: true }).click();
  await expect(flash(page)).toHaveText("Zapisano galerię.");

  await page.goto(`/galeria/${slug(title)}`);
  const alts = await page.locator(".photo-grid img").evaluateAll((imgs) => imgs.map((i) => i.getAttribute("alt")));
  expect(alts).toEqual([`Zdjęcie 1 z galerii ${title}`, "Dzieci bawią się na łące"]);
  await expect(page.getByRole("link", { name: "Dzieci bawią się na łące" })).toBeVisible();
});
