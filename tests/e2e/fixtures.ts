import { type Page, test as base, expect } from "@playwright/test";

/** Every test stays on this machine: requests to other hosts (map, calendar) are answered empty. */
export const test = base.extend({
  page: async ({ page, baseURL }, use) => {
    const own = new URL(baseURL!).host;
    await page.route(
      (url) => url.host !== own,
      (route) => route.fulfill({ status: 204, body: "" }),
    );
    await use(page);
  },
});

export { expect };

/** The pastor account the e2e server creates (tests/e2e/server.mjs). */
export const PASTOR = { email: "pastor@example.org", password: "haslo-testowe-123" };

/**
 * The one-time message a page shows after a redirect ("Zapisano galerię.").
 * Not simply the page's status role: while the next page renders, the
 * previous one (an editor's upload report, the drag-and-drop live region)
 * may still be on screen with live regions of its own.
 */
export const flash = (page: Page) => page.locator("p.flash[role=status]");

/** Signs in through the login form, as the pastor would. */
export async function signIn(page: Page) {
  await page.goto("/strefapastora/logowanie");
  await page.getByLabel("Login").fill(PASTOR.email);
  await page.getByLabel("Hasło").fill(PASTOR.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/strefapastora$/);
}

/** The fixed public pages (articles and albums are found from their lists). */
export const PUBLIC_PAGES = [
  "/",
  "/onas",
  "/onas/swiadectwa/1",
  "/aktualnosci",
  "/kalendarz",
  "/sluzby",
  "/kontakt",
  "/galeria",
  "/polityka-prywatnosci",
];
