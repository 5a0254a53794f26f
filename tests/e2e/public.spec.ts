import { sampleFacts, sampleTestimonies } from "../../app/content/church";
import { expect, test } from "./fixtures";

// Each page its own title, so tabs, bookmarks and search results tell them apart.
const pages = [
  { path: "/", heading: "WITAJ!", title: "Kościół Zielonoświątkowy w Wieliczce" },
  { path: "/onas", heading: "O nas", title: "O nas · Kościół Zielonoświątkowy w Wieliczce" },
  { path: "/aktualnosci", heading: "Aktualności", title: "Aktualności · Kościół Zielonoświątkowy w Wieliczce" },
  { path: "/kalendarz", heading: "Kalendarz", title: "Kalendarz · Kościół Zielonoświątkowy w Wieliczce" },
  { path: "/sluzby", heading: "Służby", title: "Służby · Kościół Zielonoświątkowy w Wieliczce" },
  { path: "/kontakt", heading: "Kontakt", title: "Kontakt · Kościół Zielonoświątkowy w Wieliczce" },
  {
    path: "/galeria",
    heading: "Galeria zdjęć zborowych",
    title: "Galeria zdjęć zborowych · Kościół Zielonoświątkowy w Wieliczce",
  },
  {
    path: "/polityka-prywatnosci",
    heading: "POLITYKA PRYWATNOŚCI RODO",
    title: "Polityka prywatności · Kościół Zielonoświątkowy w Wieliczce",
  },
  {
    path: "/onas/swiadectwa/1",
    heading: sampleTestimonies[0].title,
    title: `Świadectwo: ${sampleTestimonies[0].title} · Kościół Zielonoświątkowy w Wieliczce`,
  },
];

for (const { path, heading, title } of pages) {
  test(`${path} is served whole by the server`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(title);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    // Public pages do not load the React bundle.
    await expect(page.locator("script[src]")).toHaveCount(0);
    const header = page.getByRole("banner");
    await expect(header.getByRole("link", { name: /Kościół zielonoświątkowy\s*Zbór w Wieliczce/ })).toHaveAttribute(
      "href",
      "/",
    );
    const nav = page.getByRole("navigation", { name: "Menu główne" });
    for (const label of ["Strona główna", "O nas", "Aktualności", "Galeria", "Służby", "Kalendarz", "Kontakt"]) {
      await expect(nav.getByRole("link", { name: label, exact: true })).toHaveCount(1);
    }
    const footer = page.getByRole("contentinfo");
    await expect(footer).toContainText(
      `Copyright © ${new Date().getFullYear()} Kościół Zielonoświątkowy Zbór w Wieliczce`,
    );
    await expect(footer.getByRole("link", { name: "Polityka prywatności" })).toHaveAttribute(
      "href",
      "/polityka-prywatnosci",
    );
    // The pastor zone link only on the home page.
    await expect(footer.getByRole("link", { name: "Strefa pastora" })).toHaveCount(path === "/" ? 1 : 0);
  });
}

test("home: verse, meetings, news link, location, donation", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByText("Objawienie Jana 3:8")).toBeVisible();
  await page.getByRole("link", { name: "Czytaj dalej" }).click();
  await expect(page).toHaveURL(/#witaj$/);
  await expect(page.getByRole("heading", { name: "Nasze spotkania" })).toBeVisible();
  await expect(page.getByText("niedziela, godz. 10:00")).toBeVisible();
  await expect(page.getByText("sobota, godz. 17:00–20:00")).toBeVisible();
  await expect(page.getByText("wtorek i piątek, godz. 19:00")).toBeVisible();
  await expect(page.getByText("Kampus Wieliczka, skrzydło E")).toBeVisible();
  await expect(page.getByText("ul. Marszałka Józefa Piłsudskiego 105", { exact: false })).toBeVisible();
  await expect(page.locator("iframe.map")).toHaveAttribute("loading", "lazy");
  await expect(page.getByText("darowizna na cele kultu religijnego")).toBeVisible();
  await page.getByRole("link", { name: "Zobacz najnowsze aktualności" }).click();
  await expect(page).toHaveURL(/\/aktualnosci$/);
});

test("cookie notice: accepted once, hidden for the rest of the browser session", async ({ page, browser }) => {
  await page.goto("/");
  const notice = page.getByRole("dialog", { name: "Polityka prywatności" });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(
    "Klikając „Akceptuję”, zgadzasz się na wykorzystanie plików cookie zgodnie z naszą Polityką prywatności.",
  );
  await page.setViewportSize({ width: 1280, height: 800 });
  expect((await notice.boundingBox())?.width).toBe(600);
  await page.setViewportSize({ width: 375, height: 800 });
  expect((await notice.boundingBox())?.width).toBe(300);
  // The notice does not block reading: the page behind it is usable.
  await expect(page.getByRole("link", { name: "Czytaj dalej" })).toBeVisible();

  await notice.getByRole("button", { name: "Akceptuję" }).click();
  await expect(page.getByRole("dialog", { name: "Polityka prywatności" })).toBeHidden();
  await page.reload();
  await expect(page.getByRole("dialog", { name: "Polityka prywatności" })).toBeHidden();
  await page.goto("/onas");
  await page.goto("/");
  await expect(page.getByRole("dialog", { name: "Polityka prywatności" })).toBeHidden();

  // A new browser session asks again.
  const other = await browser.newContext({ javaScriptEnabled: test.info().project.name === "js" });
  const fresh = await other.newPage();
  await fresh.goto(page.url());
  await expect(fresh.getByRole("dialog", { name: "Polityka prywatności" })).toBeVisible();
  await other.close();
});

test("the close button also accepts the notice", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Zamknij" }).click();
  await expect(page.getByRole("dialog", { name: "Polityka prywatności" })).toBeHidden();
  await page.reload();
  await expect(page.getByRole("dialog", { name: "Polityka prywatności" })).toBeHidden();
});

test.describe("mobile menu at 375 px", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("opens behind the hamburger and leads to a page", async ({ page }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Menu główne" });
    await expect(nav).toBeHidden();
    await page.locator("label.nav-toggle-label").click();
    await expect(nav).toBeVisible();
    await nav.getByRole("link", { name: "Kontakt" }).click();
    await expect(page).toHaveURL(/\/kontakt$/);
    await expect(page.getByRole("heading", { level: 1, name: "Kontakt" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Menu główne" })).toBeHidden();
  });

  test("can be opened from the keyboard", async ({ page }) => {
    await page.goto("/");
    await page.locator("#nav-toggle").focus();
    await page.keyboard.press("Space");
    await expect(page.getByRole("navigation", { name: "Menu główne" })).toBeVisible();
  });
});

test("news: list newest first, article with links opening in a new tab, back arrow", async ({ page }) => {
  await page.goto("/aktualnosci");
  const cards = page.locator(".cards > li");
  await expect(cards).toHaveCount(4);
  await expect(cards.first().getByRole("heading")).toHaveText("Chrzest wiary");
  // Legacy date text is shown before its first comma.
  await expect(page.getByText("12 września 2020", { exact: true })).toBeVisible();
  const firstImage = cards.first().locator("img");
  await expect(firstImage).toHaveAttribute("srcset", /480w/);
  await expect(firstImage).toHaveAttribute("width", /\d+/);
  await expect(firstImage).toHaveAttribute("fetchpriority", "high");
  await expect(cards.nth(1).locator("img")).toHaveAttribute("fetchpriority", "low");
  await expect(cards.nth(2).locator("img")).toHaveAttribute("loading", "lazy");

  await page.getByRole("link", { name: /zobacz więcej.*Nabożeństwo dziękczynne/ }).click();
  await expect(page).toHaveTitle("Nabożeństwo dziękczynne · Kościół Zielonoświątkowy w Wieliczce");
  await expect(page.getByRole("heading", { level: 1, name: "Nabożeństwo dziękczynne" })).toBeVisible();
  const link = page.getByRole("link", { name: "https://example.org/ogloszenia" });
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", /noopener/);
  await page.getByRole("link", { name: "wróć" }).click();
  await expect(page).toHaveURL(/\/aktualnosci$/);
});

test("news: a missing article says so and offers a way back", async ({ page }) => {
  const response = await page.goto("/aktualnosci/123");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("nie ma takiego dokumentu")).toBeVisible();
  await expect(page.getByRole("link", { name: "wróć" })).toHaveAttribute("href", "/aktualnosci");
});

test("gallery: albums newest first, album page with photos opening large in a new tab", async ({ page }) => {
  await page.goto("/galeria");
  const cards = page.locator(".cards > li");
  await expect(cards.first().getByRole("heading")).toHaveText("Piknik zborowy 2025");
  await cards
    .first()
    .getByRole("link", { name: /szczegóły/ })
    .click();
  await expect(page).toHaveURL(/\/galeria\/Piknik%20zborowy%202025$/);
  await expect(page.getByRole("heading", { level: 1, name: "Piknik zborowy 2025" })).toBeVisible();
  await expect(page).toHaveTitle("Piknik zborowy 2025 · Kościół Zielonoświątkowy w Wieliczce");
  const photos = page.locator(".photo-grid a");
  await expect(photos).toHaveCount(5);
  await expect(photos.first()).toHaveAttribute("target", "_blank");
  await expect(photos.first()).toHaveAttribute("href", /\.jpg$/);
  const full = await page.request.get((await photos.first().getAttribute("href")) as string);
  expect(full.headers()["content-type"]).toBe("image/jpeg");
  expect(full.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  await page.getByRole("link", { name: "wróć" }).click();
  await expect(page).toHaveURL(/\/galeria$/);
});

test("about: creed, history photos in new tabs, testimonies", async ({ page }) => {
  await page.goto("/onas");
  await expect(page.locator(".creed li")).toHaveCount(8);
  const photos = page.locator(".photo-grid a");
  await expect(photos).toHaveCount(3);
  await expect(photos.first()).toHaveAttribute("target", "_blank");
  await expect(photos.first().locator("img")).toHaveAttribute("loading", "lazy");
  await expect(page.getByRole("link", { name: /czytaj więcej/ })).toHaveCount(5);
  await page
    .getByRole("link", { name: /czytaj więcej/ })
    .nth(2)
    .click();
  await expect(page).toHaveURL(/\/onas\/swiadectwa\/3$/);
  await expect(page.getByRole("heading", { level: 1, name: sampleTestimonies[2].title })).toBeVisible();
});

test("ministries, contact and calendar show the fixed content", async ({ page }) => {
  await page.goto("/sluzby");
  await expect(page.locator(".ministries > li")).toHaveCount(9);
  await page.goto("/kontakt");
  await expect(page.getByText(sampleFacts.email)).toBeVisible();
  await expect(page.getByText(sampleFacts.nip)).toBeVisible();
  await expect(page.getByText(sampleFacts.regon)).toBeVisible();
  await expect(page.getByText(sampleFacts.account)).toBeVisible();
  await expect(page.getByRole("img", { name: "Polska" })).toHaveCount(2);
  const channel = page.getByRole("link", { name: "Nasz kanał wideo" });
  await expect(channel).toHaveAttribute("target", "_blank");
  await expect(page.locator("iframe.map")).toHaveAttribute("loading", "lazy");
  // The congregation's own calendar: the sample meetings, nothing from another host.
  const requested: string[] = [];
  page.on("request", (r) => requested.push(r.url()));
  await page.goto("/kalendarz");
  await expect(page.locator("iframe")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Nabożeństwo niedzielne" }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "subskrybuj" })).toHaveAttribute(
    "href",
    /^webcal:\/\/.+\/kalendarz\.ics$/,
  );
  await page.getByRole("link", { name: "widok miesiąca" }).click();
  await expect(page.locator("table.month th")).toHaveCount(7);
  await page.getByRole("link", { name: "następny miesiąc →" }).click();
  await expect(page).toHaveURL(/\?miesiac=\d{4}-\d{2}$/);
  await expect(page.locator("table.month")).toBeVisible();
  expect(requested.filter((u) => new URL(u).host !== new URL(page.url()).host)).toEqual([]);
});

test("privacy policy names the congregation as entered, lists the data-subject rights and leads back home", async ({
  page,
}) => {
  await page.goto("/polityka-prywatnosci");
  // The administrator is the congregation of 'Dane zboru', not a name fixed in code.
  await expect(page.locator("main")).toContainText(`jest pastor zboru „${sampleFacts.name}”.`);
  for (const right of [
    "dostępu",
    "sprostowania",
    "usunięcia",
    "ograniczenia",
    "przenoszenia",
    "cofnięcia zgody",
    "skargi",
  ]) {
    await expect(page.locator("main")).toContainText(right);
  }
  await page.getByRole("link", { name: "Powrót na stronę główną" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("redirects: unknown paths, albums and testimonies", async ({ page }) => {
  await page.goto("/nie-ma-takiej-strony");
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/galeria/Nie%20ma%20takiego%20albumu");
  await expect(page).toHaveURL(/\/galeria$/);
  await page.goto("/onas/swiadectwa/99");
  await expect(page).toHaveURL(/\/onas$/);
});

test("hostile ids and slugs never give a server error", async ({ request }) => {
  for (const path of [
    "/aktualnosci/%E0%A4%A",
    `/aktualnosci/${"9".repeat(5000)}`,
    "/aktualnosci/..%2F..%2Fetc%2Fpasswd",
    "/galeria/%E0%A4%A",
    `/galeria/${"x".repeat(5000)}`,
    "/galeria/a%2F..%2Fb%3F%23%26%25",
    "/onas/swiadectwa/%00",
    "/pliki/..%2F..%2Fpackage.json",
    "/pliki/../../package.json",
  ]) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBeLessThan(500);
  }
  // An address that cannot be decoded gets a Polish page, not Express's English one.
  const bad = await request.get("/aktualnosci/%E0%A4%A");
  expect(bad.status()).toBe(404);
  expect(await bad.text()).toContain("Nie znaleziono strony");
});
