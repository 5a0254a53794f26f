// Accessibility of every page, public and pastor, with JavaScript on and off
// (the two projects), on a phone and on a desktop (the pastor's pages on
// a phone; see checkPage): axe finds no serious or critical violation, and the rules axe cannot judge alone are checked here:
// skip link, visible focus, landmarks, heading order, reduced motion.
import type { Page } from "@playwright/test";
import { createAlbum, photo, removeTestAlbums, slug, uniqueTitle } from "./galleries.helpers";
import { PASTOR, addArticle, removeTestArticles, uniqueHeader } from "./articles.helpers";
import { PUBLIC_PAGES, expect, signIn, test } from "./fixtures";
import { binRow, confirmDelete, purgeTestItems } from "./bin.helpers";
import { axe } from "./axe.helpers";

const VIEWPORTS = [
  { name: "375 px", width: 375, height: 740 },
  { name: "1280 px", width: 1280, height: 800 },
];

// The page a copy is checked in (below): one per worker, kept from scan to
// scan, so its stylesheets and fonts come from its cache after the first.
let checker: { page: Page; serves: { url: string; html: string } } | undefined;

async function copyChecker(page: Page) {
  if (checker && !checker.page.isClosed()) return checker;
  const context = await page.context().browser()!.newContext({
    // Contexts made in a test inherit the project's options, JavaScript off included.
    javaScriptEnabled: true,
    serviceWorkers: "block",
  });
  const copy = await context.newPage();
  const serves = { url: "", html: "" };
  await copy.route(
    () => true,
    (route) => {
      const url = route.request().url();
      if (url === serves.url) {
        return route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: serves.html });
      }
      if (new URL(url).host !== new URL(serves.url).host) return route.fulfill({ status: 204, body: "" });
      return route.continue();
    },
  );
  checker = { page: copy, serves };
  return checker;
}

/**
 * axe is a script, and a page without JavaScript runs none. So without
 * JavaScript the page's HTML, as the server sent it and no script changed
 * it, is checked in a copy that lets axe run and nothing of the page's own.
 */
async function scan(page: Page) {
  if (test.info().project.use.javaScriptEnabled !== false) return axe(page);
  const { page: copy, serves } = await copyChecker(page);
  const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
  const url = page.url().replace(/#.*$/, "");
  await copy.setViewportSize(page.viewportSize()!);
  // The same HTML at another width: the copy loaded already only changes size.
  if (html !== serves.html || url !== serves.url) {
    Object.assign(serves, { html, url });
    if (copy.url() === "about:blank") {
      await copy.goto(serves.url);
    } else {
      // Another page's HTML written into the same window: axe, put in once,
      // stays (document.open keeps the window), where loading each copy
      // anew put its half-megabyte script into every one, most of this
      // file's time. Every address is from the root, so the document's own
      // (the first copy's) changes no link or photo.
      await copy.evaluate((h) => {
        document.open();
        document.write(h);
        document.close();
      }, html);
      // The styles decide contrast and what is hidden: wait for every sheet.
      await copy.waitForFunction(() =>
        [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].every((l) => l.sheet),
      );
    }
    expect(await copy.locator("script").count()).toBe(0);
  }
  return axe(copy);
}

/** Heading levels as a screen reader lists them. */
const headingLevels = (page: Page) =>
  page
    .locator("h1, h2, h3, h4, h5, h6")
    .evaluateAll((hs) =>
      hs
        .filter((h) => (h as HTMLElement).offsetParent !== null || h.getClientRects().length > 0)
        .map((h) => Number(h.tagName[1])),
    );

/**
 * Every check of this file for the page that is open, at both widths. axe
 * runs at both on the public pages, and on the pastor's pages at the phone's
 * width only, where he works: they have no styles of their own that change
 * with the width (pastor.css has no media query), and the header, menu and
 * footer they share with the public pages are scanned at both widths there.
 */
async function checkPage(page: Page, label: string, { axeWidths = VIEWPORTS } = {}) {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    if (axeWidths.includes(viewport)) expect(await scan(page), `${label} at ${viewport.name}`).toEqual([]);
    // WCAG 1.4.10 reflow: nothing makes the page scroll sideways.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `${label} at ${viewport.name}: wider than the screen by`).toBeLessThanOrEqual(0);
  }
  // One of each landmark; the skip link leads to the main one.
  await expect(page.getByRole("banner")).toHaveCount(1);
  await expect(page.getByRole("main")).toHaveCount(1);
  await expect(page.getByRole("contentinfo")).toHaveCount(1);
  await expect(page.locator("main#main")).toHaveCount(1);
  // Headings start at one h1 and never skip a level going down.
  const levels = await headingLevels(page);
  expect(levels[0], `${label}: first heading`).toBe(1);
  expect(
    levels.filter((l) => l === 1),
    `${label}: h1 count`,
  ).toHaveLength(1);
  levels.forEach((level, i) => {
    if (i > 0)
      expect(
        level - levels[i - 1],
        `${label}: heading ${i + 1} (h${level}) after h${levels[i - 1]}`,
      ).toBeLessThanOrEqual(1);
  });
}

/** checkPage for a page of the pastor area: axe at the phone's width. */
const checkPastorPage = (page: Page, label: string) => checkPage(page, label, { axeWidths: [VIEWPORTS[0]] });

async function hrefOf(page: Page, selector: string) {
  return (await page.locator(selector).first().getAttribute("href"))!;
}

test.describe("public pages", () => {
  const paths = [
    ...PUBLIC_PAGES,
    "/strefapastora/logowanie",
    // An article that does not exist: the 404 page.
    "/aktualnosci/0",
  ];
  for (const path of paths) {
    test(`${path} has no serious accessibility problem`, async ({ page }) => {
      await page.goto(path);
      await checkPage(page, path);
    });
  }

  test("a news article and an album have no serious accessibility problem", async ({ page }) => {
    await page.goto("/aktualnosci");
    const article = await hrefOf(page, 'main a[href^="/aktualnosci/"]');
    await page.goto("/galeria");
    const album = await hrefOf(page, 'main a[href^="/galeria/"]');
    for (const path of [article, album]) {
      await page.goto(path);
      await checkPage(page, path);
    }
  });

  test("a failed sign-in shows its message accessibly", async ({ page }) => {
    await page.goto("/strefapastora/logowanie");
    await page.getByLabel("Login").fill("ktos@example.org");
    await page.getByLabel("Hasło").fill("zle-haslo-123");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByRole("alert")).toBeVisible();
    await checkPage(page, "sign-in with an error");
  });
});

test.describe("pastor pages", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });
  // What a test added (its titles start with "E2E "), removed by that test.
  async function cleanUp(page: Page) {
    await removeTestAlbums(page);
    await purgeTestItems(page);
  }

  test("every page of the pastor area has no serious accessibility problem", async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto("/strefapastora/artykuly");
    const editArticle = await hrefOf(page, 'main a[href^="/strefapastora/artykuly/edytuj/"]');
    await page.goto("/strefapastora/galeria");
    const albumPath = await hrefOf(page, 'main a[href^="/strefapastora/galeria/"]:not([href$="/dodaj"])');
    const editAlbum = albumPath.replace("/strefapastora/galeria/", "/strefapastora/galeria/edytuj/");
    for (const path of [
      "/strefapastora",
      "/strefapastora/artykuly",
      "/strefapastora/artykuly/dodaj",
      editArticle,
      // No such article: the message is the page's heading.
      "/strefapastora/artykuly/edytuj/0",
      "/strefapastora/galeria",
      albumPath,
      "/strefapastora/galeria/dodaj",
      editAlbum,
      "/strefapastora/urzadzenia",
      "/strefapastora/weryfikacja-dwuetapowa",
    ]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await checkPastorPage(page, path);
    }
  });

  test("ministries, testimonies and history photos have no serious accessibility problem", async ({ page }) => {
    // axe takes several seconds a page on a busy machine.
    test.setTimeout(120_000);
    for (const path of [
      "/strefapastora/sluzby",
      "/strefapastora/swiadectwa",
      "/strefapastora/swiadectwa/dodaj",
      "/strefapastora/swiadectwa/edytuj/1",
      "/strefapastora/zdjecia-historii",
    ]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await checkPastorPage(page, path);
    }
  });

  test("the congregation's facts and the events have no serious accessibility problem", async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto("/strefapastora/wydarzenia");
    const editEvent = await hrefOf(page, 'main a[href^="/strefapastora/wydarzenia/edytuj/"]');
    await page.goto(editEvent);
    const occurrence = await hrefOf(page, 'main a[href*="/termin/"]');
    for (const path of [
      "/strefapastora/dane-zboru",
      "/strefapastora/wydarzenia",
      "/strefapastora/wydarzenia/dodaj",
      editEvent,
      occurrence,
    ]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await checkPastorPage(page, path);
    }
  });

  test("setting up the second factor (QR code, key, code field) has no serious accessibility problem", async ({
    page,
  }) => {
    await page.goto("/strefapastora/weryfikacja-dwuetapowa");
    await page.getByRole("button", { name: "włącz weryfikację dwuetapową" }).click();
    await expect(page.getByRole("img", { name: /Kod QR/ })).toBeVisible();
    await checkPastorPage(page, "second factor setup");
    // Not turned on: the demo account stays without it.
    await page.getByRole("button", { name: "anuluj" }).click();
    await expect(page.getByRole("button", { name: "włącz weryfikację dwuetapową" })).toBeVisible();
  });

  test("the bin and the history of changes have no serious accessibility problem", async ({ page }) => {
    for (const path of ["/strefapastora/kosz", "/strefapastora/historia-zmian"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await checkPastorPage(page, path);
    }
  });

  test("the previews of an article and an album have no serious accessibility problem", async ({ page }) => {
    await page.goto("/strefapastora/artykuly");
    const article = await hrefOf(page, 'main a[href^="/strefapastora/artykuly/"][href$="/podglad"]');
    await page.goto("/strefapastora/galeria");
    const album = await hrefOf(page, 'main a[href^="/strefapastora/galeria/"][href$="/podglad"]');
    for (const path of [article, album]) {
      await page.goto(path);
      await expect(page.getByText("Podgląd — tak zobaczą tę stronę odwiedzający")).toBeVisible();
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await checkPastorPage(page, path);
    }
  });

  test("forms with messages and the album editor with photos have no serious accessibility problem", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    try {
      // An article sent empty comes back with its messages.
      await page.goto("/strefapastora/artykuly/dodaj");
      await page
        .locator("form.form")
        .evaluate((f: HTMLFormElement) => (f.noValidate = true))
        .catch(() => {});
      await page
        .getByRole("button", { name: /dodaj|zapisz/i })
        .last()
        .click();
      await expect(page.locator(".field-error, .form-error, [role=alert]").first()).toBeVisible();
      await checkPastorPage(page, "article form with messages");

      // An album with photos: each row has its buttons and description field.
      const title = uniqueTitle("Dostępność");
      await createAlbum(page, title, [await photo("A.jpg", 10), await photo("B.jpg", 200)]);
      await checkPastorPage(page, "album with photos");
      await page.getByRole("link", { name: "edytuj" }).click();
      await expect(page.getByLabel(/^opis zdjęcia dla niewidomych/)).toHaveCount(2);
      await checkPastorPage(page, "album editor with photos");

      // The bin with the album in it, then asking for another title (a new album took this one).
      await page.goto(`/strefapastora/galeria/${encodeURIComponent(title)}`);
      await confirmDelete(page, page.getByRole("button", { name: "usuń", exact: true }));
      await createAlbum(page, title);
      await page.goto("/strefapastora/kosz");
      await checkPastorPage(page, "bin with an album");
      await binRow(page, title)
        .getByRole("button", { name: /^przywróć/ })
        .click();
      await expect(page.getByLabel("Nowy tytuł galerii")).toBeVisible();
      await checkPastorPage(page, "bin asking for another title");
    } finally {
      await cleanUp(page);
    }
  });

  test("a form kept after the session ended and a refused save over a newer version have no serious accessibility problem", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    try {
      // Sent after the session ended, back after sign-in with its message.
      await page.goto("/strefapastora/artykuly/dodaj");
      await page.getByLabel("Nagłówek").fill(uniqueHeader("Dostępność"));
      await page.context().clearCookies({ name: /session$/ });
      await page.getByRole("button", { name: "dodaj", exact: true }).click();
      await expect(page).toHaveURL(/\/strefapastora\/logowanie\?redirectTo=/);
      await page.getByLabel("Login").fill(PASTOR.email);
      await page.getByLabel("Hasło").fill(PASTOR.password);
      await page.getByRole("button", { name: "Login" }).click();
      await expect(page.getByRole("status").filter({ hasText: /^Sesja wygasła/ })).toBeVisible();
      await checkPastorPage(page, "kept article form");

      // Saved in another window meanwhile: the refusal with the stored version.
      const header = uniqueHeader("Dostępność zmiany");
      const id = await addArticle(page, { header });
      const other = await page.context().newPage();
      await page.goto(`/strefapastora/artykuly/edytuj/${id}`);
      await other.goto(`/strefapastora/artykuly/edytuj/${id}`);
      await other.getByLabel("Nagłówek").fill(`${header} 2`);
      await other.getByRole("button", { name: "zatwierdź" }).click();
      await expect(other).toHaveURL(/\/strefapastora\/artykuly$/);
      await page.getByRole("button", { name: "zatwierdź" }).click();
      await expect(page.getByRole("button", { name: "zapisz moją wersję" })).toBeVisible();
      await checkPastorPage(page, "article refused over a newer version");

      const title = uniqueTitle("Dostępność zmiany");
      await createAlbum(page, title);
      await page.goto(`/strefapastora/galeria/edytuj/${slug(title)}`);
      await other.goto(`/strefapastora/galeria/edytuj/${slug(title)}`);
      await other.getByLabel("TYTUŁ").fill(`${title} 2`);
      await other.getByRole("button", { name: "zapisz", exact: true }).click();
      await expect(other.locator("p.flash[role=status]")).toHaveText("Zapisano galerię.");
      await page.getByRole("button", { name: "zapisz", exact: true }).click();
      await expect(page.getByRole("button", { name: "zapisz moją wersję" })).toBeVisible();
      await checkPastorPage(page, "album refused over a newer version");
      await other.close();
    } finally {
      await removeTestArticles(page, baseURL!);
      await cleanUp(page);
    }
  });
});

test("the skip link is the first stop of the keyboard and leads to the content", async ({ page }) => {
  await page.goto("/kontakt");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Przejdź do treści" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
  // The next Tab continues inside the content, not in the header again.
  await page.keyboard.press("Tab");
  const inMain = await page.evaluate(() => Boolean(document.activeElement?.closest("main")));
  expect(inMain).toBe(true);
});

test("keyboard focus is clearly visible on links, buttons and fields", async ({ page }) => {
  await page.goto("/strefapastora/logowanie");
  const targets = [
    page.getByRole("navigation", { name: "Menu główne" }).getByRole("link", { name: "Kontakt" }),
    page.getByLabel("Login"),
    page.getByRole("button", { name: "Login" }),
  ];
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const target of targets) {
    await target.focus();
    // Focused from the keyboard's point of view: :focus-visible applies.
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    await expect(target).toBeFocused();
    const style = await target.evaluate((el) => {
      const s = getComputedStyle(el);
      return { style: s.outlineStyle, width: parseFloat(s.outlineWidth), color: s.outlineColor };
    });
    expect(style.style).not.toBe("none");
    expect(style.width).toBeGreaterThanOrEqual(2);
  }
});

test("motion follows the visitor's setting", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "no-preference" });
  await page.goto("/");
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe("smooth");
  await page.emulateMedia({ reducedMotion: "reduce" });
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe("auto");
  // Transitions (the dragged photo's, say) collapse to nothing.
  const duration = await page.evaluate(() => {
    const probe = document.createElement("div");
    probe.style.transition = "transform 300ms ease";
    document.body.append(probe);
    const d = getComputedStyle(probe).transitionDuration;
    probe.remove();
    return parseFloat(d);
  });
  expect(duration).toBeLessThan(0.01);
});
