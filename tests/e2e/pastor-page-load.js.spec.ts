// How the pastor's pages load on a phone. They carry their stylesheets
// inline, as public pages do: the first screen waits on no stylesheet
// request. React hydrates most of them, so the browser must render the very
// same <style> elements (read back from the page, app/entry.client.tsx); a
// difference would make React throw the server's page away and log a
// hydration error. The panel's home, a page of links, loads no script.
import { PASTOR, expect, hydrated, signIn, test } from "./fixtures";

test("a hydrated pastor page inlines its stylesheets, hydrates them unchanged and keeps them across pages", async ({
  page,
}) => {
  await signIn(page);
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  const requests: string[] = [];
  page.on("request", (request) => requests.push(`${request.resourceType()} ${new URL(request.url()).pathname}`));

  await page.goto("/strefapastora/artykuly");
  await hydrated(page.getByRole("link", { name: "dodaj nowy artykuł" }));
  const inlined = page.locator("head > style[data-href]");
  await expect(inlined).toHaveCount(2);
  expect(await inlined.evaluateAll((styles) => styles.map((s) => s.getAttribute("data-href")))).toEqual([
    expect.stringMatching(/^\/build\/_assets\/app-\w+\.css$/),
    expect.stringMatching(/^\/build\/_assets\/pastor-\w+\.css$/),
  ]);
  await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(0);
  // The styles apply: the skip link waits off screen until it has focus.
  await expect(page.getByRole("link", { name: "Przejdź do treści" })).not.toBeInViewport();

  // To another pastor page without a page load (an article's own page): the same styles, still inline.
  await page
    .getByRole("link", { name: /^pokaż/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/strefapastora\/artykuly\/\d+$/);
  await expect(inlined).toHaveCount(2);
  await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(0);
  expect(requests.filter((r) => r.startsWith("stylesheet ") || r.startsWith("document "))).toEqual([
    "document /strefapastora/artykuly",
  ]);
  expect(errors).toEqual([]);
});

test("the panel's home loads no script, also when a hydrated page leads to it", async ({ page }) => {
  const requests: string[] = [];
  page.on("request", (request) => requests.push(`${request.resourceType()} ${new URL(request.url()).pathname}`));
  // The login form is hydrated; its redirect to the panel loads the panel as a document.
  await page.goto("/strefapastora/logowanie");
  const login = page.getByRole("button", { name: "Login" });
  await hydrated(login);
  await page.getByLabel("Login").fill(PASTOR.email);
  await page.getByLabel("Hasło").fill(PASTOR.password);
  await login.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Strefa pastora");
  await expect(page).toHaveURL(/\/strefapastora$/);
  await expect(page.locator("head > style[data-href]")).toHaveCount(2);
  expect(requests).toContain("document /strefapastora");
  const afterPanel = requests.slice(requests.lastIndexOf("document /strefapastora"));
  expect(afterPanel.filter((r) => r.startsWith("script "))).toEqual([]);
  expect(await page.evaluate(() => "__remixContext" in window)).toBe(false);
  // Its links still lead on, to pages that bring React along.
  await page.getByRole("link", { name: "lista artykułów" }).click();
  await hydrated(page.getByRole("link", { name: "dodaj nowy artykuł" }));
});
