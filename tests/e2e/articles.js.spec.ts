// What JavaScript adds to the article forms: an upload progress bar, a
// disabled button while saving (no double submission), refusals shown
// without leaving the page, and 'Zmień zdjęcie' without a reload.
import { expect, flash, hydrated, test } from "./fixtures";
import {
  addArticle,
  card,
  fillNewArticle,
  photo,
  removeTestArticles,
  signIn,
  textFile,
  uniqueHeader,
} from "./articles.helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test.afterEach(async ({ page, baseURL }) => {
  await removeTestArticles(page, baseURL!);
});

test("a large photo goes up with a progress bar while the button waits", async ({ page }) => {
  // Some seconds of deliberately slow upload, then the photo is processed.
  test.setTimeout(60_000);
  const header = uniqueHeader("Postęp");
  // Heavy in bytes (grain), small in pixels: the upload is what is watched,
  // and the server's processing of it is kept short. Under 1 MB, so the
  // browser sends it as it is.
  const heavy = await photo("duze.jpg", { width: 1000, height: 750, noise: true });
  expect(heavy.buffer.length).toBeGreaterThan(600_000);

  await fillNewArticle(page, { header, text: "Z paskiem postępu.", date: "2001-06-07", image: heavy });

  // A slow uplink, as from a phone, so the bar can be seen moving.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 150 * 1024,
  });

  const button = page.getByRole("button", { name: "dodaj", exact: true });
  await button.click();
  const bar = page.locator(".upload-progress progress");
  await expect(bar).toBeVisible();
  await expect(button).toBeDisabled();
  await expect.poll(async () => Number(await bar.getAttribute("value")), { timeout: 10_000 }).toBeGreaterThan(0);
  await expect(page.getByRole("status")).toContainText(/Wysyłanie: \d+%|Przetwarzanie zdjęcia/);

  await expect(page).toHaveURL(/\/strefapastora\/artykuly$/, { timeout: 20_000 });
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expect(flash(page)).toHaveText("Dodano artykuł.");
  await expect(card(page, header)).toHaveCount(1);
});

test("a form sent twice at once is saved once", async ({ page }) => {
  const header = uniqueHeader("Podwójnie");
  await fillNewArticle(page, { header, text: "Raz.", date: "2001-07-08" });
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST") posts.push(r.url());
  });
  // Two submits in the same tick, before React has re-rendered the button.
  await page.locator("form.article-form").evaluate((form: HTMLFormElement) => {
    form.requestSubmit();
    form.requestSubmit();
  });
  await expect(flash(page)).toHaveText("Dodano artykuł.");
  await expect(card(page, header)).toHaveCount(1);
  // One post, to the form's upload route (not Remix's own data requests).
  expect(posts).toEqual([expect.stringMatching(/\/strefapastora\/artykuly\/dodaj\/wyslij$/)]);
});

test("a refused photo is said in place: no reload, sent once, the text kept", async ({ page }) => {
  const header = uniqueHeader("Na miejscu");
  await fillNewArticle(page, { header, text: "Treść.", date: "2001-08-09", image: textFile() });
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST") posts.push(new URL(r.url()).pathname);
  });
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText("To nie jest zdjęcie w formacie JPEG, PNG ani WebP.");
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  await expect(page.getByRole("button", { name: "dodaj", exact: true })).toBeEnabled();
  await expect(page.getByLabel("Zdjęcie", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Nagłówek")).toHaveValue(header);
  // The refused file went up once, to the upload route.
  expect(posts).toEqual(["/strefapastora/artykuly/dodaj/wyslij"]);

  await page.getByLabel("Zdjęcie", { exact: true }).setInputFiles(await photo());
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(flash(page)).toHaveText("Dodano artykuł.");
});

test("a form refused for its text comes back in place as the server renders it, the photo still chosen", async ({
  page,
}) => {
  const header = uniqueHeader("Bez treści");
  await fillNewArticle(page, { header, text: "", date: "2001-08-10" });
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText("Wypełnij wszystkie pola");
  await expect(page.getByLabel("Treść")).toHaveAttribute("aria-invalid", "true");
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  // The photo is still chosen, so the page does not ask for it again.
  expect(
    await page.getByLabel("Zdjęcie", { exact: true }).evaluate((i: HTMLInputElement) => i.files?.length ?? 0),
  ).toBe(1);
  await expect(page.getByText("Wybierz zdjęcie ponownie")).toHaveCount(0);
  await expect(page.getByLabel("Nagłówek")).toHaveValue(header);

  await page.getByLabel("Treść").fill("Dopisana treść.");
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(flash(page)).toHaveText("Dodano artykuł.");
  await expect(card(page, header)).toHaveCount(1);
});

test("'Zmień zdjęcie' reveals the photo fields without a request, and un-ticking drops the chosen photo", async ({
  page,
}) => {
  const header = uniqueHeader("Odsłona");
  await addArticle(page, { header });
  await card(page, header)
    .getByRole("link", { name: /^edytuj/ })
    .click();
  await expect(page.getByLabel("Nagłówek")).toHaveValue(header);

  const documents: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "document" || r.resourceType() === "fetch" || r.resourceType() === "xhr")
      documents.push(r.url());
  });
  await page.getByLabel("Zmień zdjęcie").check();
  await expect(page.getByLabel("Nowe zdjęcie")).toBeVisible();
  await page.getByLabel("Nowe zdjęcie").setInputFiles(await photo("porzucone.jpg"));
  await page.getByLabel("Zmień zdjęcie").uncheck();
  await expect(page.getByLabel("Nowe zdjęcie")).toBeHidden();
  expect(await page.getByLabel("Nowe zdjęcie").evaluate((i: HTMLInputElement) => i.files?.length ?? 0)).toBe(0);
  expect(documents).toEqual([]);
});

test("the form loads its own small script instead of React, from the list as a document", async ({ page }) => {
  await page.goto("/strefapastora/artykuly");
  await hydrated(page.getByRole("link", { name: "dodaj nowy artykuł" }));
  // The scripts the form's document asks for (the list's router first loads the route's module, to learn that).
  const scripts: string[] = [];
  let documentAsked = false;
  page.on("request", (r) => {
    if (r.resourceType() === "document") documentAsked = true;
    else if (documentAsked && r.resourceType() === "script") scripts.push(new URL(r.url()).pathname);
  });
  // A link of the hydrated list opens the form as a document, with its script.
  await page.getByRole("link", { name: "dodaj nowy artykuł" }).click();
  await expect(page.locator("form.article-form[data-enhanced]")).toHaveCount(1);
  expect(scripts).toEqual([expect.stringMatching(/^\/build\/article-form-\w+\.js$/)]);
  await expect(page.locator('script[src*="/build/entry.client"], link[rel="modulepreload"]')).toHaveCount(0);
  expect(await page.evaluate(() => "__remixContext" in window)).toBe(false);
});

test("a post the network loses says so in Polish, keeps everything typed and the photo, and can be sent again", async ({
  page,
}) => {
  const header = uniqueHeader("Bez sieci");
  await fillNewArticle(page, { header, text: "Zachowana treść.", date: "2001-09-10" });
  // The connection drops while the form goes up.
  await page.route("**/strefapastora/artykuly/dodaj/wyslij", (route) => route.abort("connectionreset"));
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Nie udało się wysłać formularza. Sprawdź połączenie i spróbuj ponownie.",
  );
  await expect(page.getByRole("button", { name: "dodaj", exact: true })).toBeEnabled();
  await expect(page.locator(".upload-progress")).toHaveCount(0);
  await expect(page.getByLabel("Nagłówek")).toHaveValue(header);
  await expect(page.getByLabel("Treść")).toHaveValue("Zachowana treść.");

  await page.unroute("**/strefapastora/artykuly/dodaj/wyslij");
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(flash(page)).toHaveText("Dodano artykuł.");
  await expect(card(page, header)).toHaveCount(1);
});
