// The pastor's signed-in devices, with JavaScript on and off: a second
// browser shows up in the list and is signed out from the first, and its
// remembered device is forgotten with 'usuń'. Both sign in through the form:
// each is a device of its own.
import { expect, flash, signInWithForm, test } from "./fixtures";

test("another browser is listed and can be signed out from here", async ({ page, browser }) => {
  await signInWithForm(page);
  const other = await browser.newContext({ javaScriptEnabled: test.info().project.name === "js" });
  const otherPage = await other.newPage();
  try {
    await signInWithForm(otherPage);

    await page.getByRole("link", { name: "zalogowane urządzenia" }).click();
    await expect(page).toHaveURL(/\/strefapastora\/urzadzenia$/);
    await expect(page.getByRole("heading", { level: 1, name: "Zalogowane urządzenia" })).toBeVisible();
    // This browser is marked; each other one has its own button.
    await expect(page.getByText("(to urządzenie)")).toHaveCount(1);
    const signOutOne = page.getByRole("button", { name: /^wyloguj to urządzenie/ });
    expect(await signOutOne.count()).toBeGreaterThanOrEqual(1);

    await page.getByRole("button", { name: "wyloguj wszystkie inne" }).click();
    await expect(flash(page)).toHaveText("Wylogowano wszystkie inne urządzenia.");
    await expect(page.getByRole("button", { name: /^wyloguj to urządzenie/ })).toHaveCount(0);

    // The other browser is sent to sign in again.
    await otherPage.goto("/strefapastora");
    await expect(otherPage).toHaveURL(/\/strefapastora\/logowanie/);
    // And this one is still signed in.
    await page.goto("/strefapastora");
    await expect(page.getByRole("heading", { level: 1, name: "Strefa pastora" })).toBeVisible();
  } finally {
    await other.close();
  }
});

test("a remembered browser is listed and forgotten with 'usuń'", async ({ page, browser }) => {
  await signInWithForm(page);
  // A browser of its own name, so that its entry is told from this worker's other sign-ins.
  const other = await browser.newContext({
    javaScriptEnabled: test.info().project.name === "js",
    userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
  });
  const otherPage = await other.newPage();
  try {
    await signInWithForm(otherPage);
    await page.goto("/strefapastora/urzadzenia");
    await expect(page.getByRole("heading", { level: 2, name: "Zapamiętane urządzenia" })).toBeVisible();
    await expect(page.getByText("(ta przeglądarka)")).toHaveCount(1);
    const forget = page.getByRole("button", { name: /^usuń : Firefox 133 · Windows 10$/ });
    await expect(forget).toHaveCount(1);

    await forget.click();
    await expect(flash(page)).toHaveText("Usunięto urządzenie.");
    await expect(forget).toHaveCount(0);
    await expect(page.getByText("(ta przeglądarka)")).toHaveCount(1);

    // The other browser, still signed in, is no longer one of the remembered ones.
    await otherPage.goto("/strefapastora/urzadzenia");
    await expect(otherPage.getByRole("heading", { level: 1, name: "Zalogowane urządzenia" })).toBeVisible();
    await expect(otherPage.getByText("(ta przeglądarka)")).toHaveCount(0);
  } finally {
    await other.close();
  }
});
