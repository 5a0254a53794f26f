import { sampleFacts } from "../../app/content/church";
import { decodeQr } from "../qr";
import { expect, test } from "./fixtures";

// Written out from the facts, not by the app's builder: NIP|PL|account|amount|recipient|title|||
const payload = [
  sampleFacts.nip.replace(/\D/g, ""),
  "PL",
  sampleFacts.account.replace(/\D/g, ""),
  "000000",
  sampleFacts.qrRecipient,
  sampleFacts.qrTitle,
  "",
  "",
  "",
].join("|");
const grouped = /^\d{2}( \d{4}){6}$/;

for (const path of ["/", "/kontakt"]) {
  test(`${path}: "Zapłać kodem" shows a QR code a banking app reads, and the account number grouped`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(path);
    if (path === "/") {
      // The cookie notice floats over the bottom of the screen: dismissed first, as a visitor would.
      await page.getByRole("button", { name: "Akceptuję" }).click();
      await expect(page.getByRole("dialog", { name: "Polityka prywatności" })).toBeHidden();
    }
    await expect(page.getByRole("heading", { name: "Zapłać kodem" })).toBeVisible();
    await expect(page.getByText("Zeskanuj kod w aplikacji banku – kwotę wpiszesz sam.")).toBeVisible();
    // The full title stays on the page; the code holds the shortened one.
    await expect(page.getByText(sampleFacts.transferTitle, { exact: true })).toBeVisible();

    const account = page.locator(".account-number");
    await expect(account).toHaveText(grouped);
    await expect(account).toHaveText(sampleFacts.account);
    expect(await account.evaluate((el) => getComputedStyle(el).userSelect)).toBe("all");
    await account.click();
    expect(await page.evaluate(() => window.getSelection()?.toString())).toBe(sampleFacts.account);

    const img = page.getByRole("img", { name: "Kod QR z danymi przelewu na konto zboru" });
    await expect(img).toHaveAttribute("loading", "lazy");
    await img.scrollIntoViewIfNeeded();
    await expect(img).toBeVisible();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(250);
    const box = (await img.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(250);
    expect(box.height).toBeGreaterThanOrEqual(250);
    // What Chromium drew under the site's headers (CSP included) is a readable code.
    expect(await decodeQr(await img.screenshot())).toBe(payload);

    const src = (await img.getAttribute("src"))!;
    const res = await page.request.get(src);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toBe("image/svg+xml; charset=utf-8");
    expect(res.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers()["etag"]).toBeTruthy();
    expect(await decodeQr(await res.body(), 250)).toBe(payload);
  });
}
