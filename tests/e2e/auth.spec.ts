// Signing in and out of the pastor area, with JavaScript on and off. The
// e2e server creates this account from ADMIN_EMAIL/ADMIN_PASSWORD.
import { expect, test } from "./fixtures";

const PASTOR = { email: "pastor@example.org", password: "haslo-testowe-123" };

test("the pastor signs in, sees the panel and signs out", async ({ page }) => {
  await page.goto("/strefapastora");
  await expect(page).toHaveURL(/\/strefapastora\/logowanie$/);

  await page.getByLabel("Login").fill(PASTOR.email);
  await page.getByLabel("Hasło").fill(PASTOR.password);
  await page.getByRole("button", { name: "Login" }).click();

  await expect(page).toHaveURL(/\/strefapastora$/);
  await expect(page.getByText(PASTOR.email)).toBeVisible();
  await expect(page.getByRole("link", { name: "lista artykułów" })).toHaveAttribute("href", "/strefapastora/artykuly");
  await expect(page.getByRole("link", { name: "galeria zborowa" })).toHaveAttribute("href", "/strefapastora/galeria");

  // Signed in, the login page leads back to the panel.
  await page.goto("/strefapastora/logowanie");
  await expect(page).toHaveURL(/\/strefapastora$/);

  await page.getByRole("button", { name: "wyloguj się" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1, name: "WITAJ!" })).toBeVisible();
  await page.goto("/strefapastora");
  await expect(page).toHaveURL(/\/strefapastora\/logowanie$/);
});

test("a wrong password is refused in the page, keeping the e-mail", async ({ page }) => {
  await page.goto("/strefapastora/logowanie");
  await page.getByLabel("Login").fill(PASTOR.email);
  await page.getByLabel("Hasło").fill("to-nie-jest-haslo");
  await page.getByRole("button", { name: "Login" }).click();

  await expect(page.getByRole("alert")).toHaveText("Niepoprawne dane logowania!");
  await expect(page).toHaveURL(/\/strefapastora\/logowanie$/);
  await expect(page.getByLabel("Login")).toHaveValue(PASTOR.email);
  await page.goto("/strefapastora");
  await expect(page).toHaveURL(/\/strefapastora\/logowanie$/);
});

test("the e-mail field is an e-mail input and the password is hidden", async ({ page }) => {
  await page.goto("/strefapastora/logowanie");
  await expect(page.getByLabel("Login")).toHaveAttribute("type", "email");
  await expect(page.getByLabel("Hasło")).toHaveAttribute("type", "password");
});

test("redirectTo keeps the pastor on this site", async ({ page }) => {
  await page.goto("/strefapastora/logowanie?redirectTo=//evil.example/strefapastora");
  await page.getByLabel("Login").fill(PASTOR.email);
  await page.getByLabel("Hasło").fill(PASTOR.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/strefapastora$/);
});

test("protected pages send strangers home", async ({ page }) => {
  for (const path of ["/strefapastora/artykuly", "/strefapastora/galeria/dodaj", "/strefapastora/wyloguj"]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/$/);
  }
});

test("after five failed sign-ins from this address the page says to wait", async ({ page }) => {
  // An e-mail of this project's own: the lock holds for this address and e-mail only.
  const email = `zamek-${test.info().project.name}@example.org`;
  await page.goto("/strefapastora/logowanie");
  for (let i = 0; i < 5; i++) {
    await page.getByLabel("Login").fill(email);
    await page.getByLabel("Hasło").fill(`zgadywane-${i}`);
    // The same message each time: wait for this answer, not the last one's.
    const answered = page.waitForResponse((r) => r.request().method() === "POST");
    await page.getByRole("button", { name: "Login" }).click();
    expect((await answered).status()).toBe(400);
    await expect(page.getByRole("alert")).toHaveText("Niepoprawne dane logowania!");
  }
  // Without the browser's cookies too: the address counts, not the cookies.
  await page.context().clearCookies();
  await page.goto("/strefapastora/logowanie");
  await page.getByLabel("Login").fill(email);
  await page.getByLabel("Hasło").fill("zgadywane-5");
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    /^Zbyt wiele nieudanych prób logowania\. Spróbuj ponownie za 1[45] min\.$/,
  );
  await expect(page.getByLabel("Login")).toHaveValue(email);
});
