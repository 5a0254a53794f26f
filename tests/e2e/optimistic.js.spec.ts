// Optimistic saves with JavaScript on the pastor's 'Służby', 'Świadectwa',
// 'Zdjęcia z historii zboru' and 'Dane zboru' pages (app/components/optimistic.tsx): each post is held on
// its way to the server, and the page already shows what it will change (a
// row moved, added, renamed or gone, a draft mark, 'Zapisywanie…'); released,
// the server's answer stands: its message after a save, its refusal beside
// the form with what was typed still there. No page is loaded anew.
import type { Page } from "@playwright/test";
import { sampleFacts } from "../../app/content/church";
import { expect, flash, hydrated, signIn, test } from "./fixtures";
import { photo } from "./galleries.helpers";

/**
 * Holds the script's posts to `path` (its `.data` address) until `release`:
 * what the page shows meanwhile is shown before the server has answered.
 */
async function holdPosts(page: Page, path: string) {
  let release = () => {};
  let gate: Promise<void> | null = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await page.route(
    (url) => url.pathname === `${path}.data`,
    async (route) => {
      if (route.request().method() === "POST" && gate) {
        held++;
        await gate;
      }
      await route.fallback();
    },
  );
  return {
    /** Resolves once `count` posts are being held. */
    held: (count = 1) => expect.poll(() => held).toBeGreaterThanOrEqual(count),
    release: () => {
      gate = null;
      release();
    },
  };
}

/** Marks the loaded document: still marked later means no page was loaded in between. */
async function markDocument(page: Page) {
  await page.evaluate(() => ((window as unknown as { unloaded: boolean }).unloaded = false));
}

async function documentKept(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { unloaded?: boolean }).unloaded)).toBe(false);
}

const saving = (page: Page) => page.getByRole("status").filter({ hasText: "Zapisywanie…" });

test.describe("ministries", () => {
  const PAGE = "/strefapastora/sluzby";
  const rows = (page: Page) => page.locator(".ministries-edit > li");
  const labels = (page: Page) => rows(page).evaluateAll((li) => li.map((l) => l.getAttribute("aria-label")));

  test.beforeEach(async ({ page }) => {
    await signIn(page);
    await page.goto(PAGE);
    await hydrated(page.locator(".ministries-edit form.form").first());
    await markDocument(page);
  });

  test("a ministry moved down is moved at once, before the server answers, then saved", async ({ page }) => {
    const before = await labels(page);
    const [first, second] = before;
    const post = await holdPosts(page, PAGE);
    await page.getByRole("button", { name: `przesuń „${first}” niżej` }).click();
    await post.held();
    await expect(rows(page).nth(0)).toHaveAttribute("aria-label", second!);
    await expect(rows(page).nth(1)).toHaveAttribute("aria-label", first!);
    await expect(saving(page)).toHaveCount(1);
    post.release();
    await expect(flash(page)).toHaveText(`Przesunięto służbę „${first}”.`);
    await expect(saving(page)).toHaveCount(0);
    expect(await labels(page)).toEqual([second, first, ...before.slice(2)]);

    // Back as it was, for the other specs.
    await page.getByRole("button", { name: `przesuń „${first}” wyżej` }).click();
    await expect.poll(() => labels(page)).toEqual(before);
    await expect(page.locator(".ministries-edit")).not.toHaveAttribute("aria-busy", "true");
    await expect(saving(page)).toHaveCount(0);
    await documentKept(page);
  });

  test("↓ tapped twice before the first answer moves the ministry two places, both saved", async ({ page }) => {
    const before = await labels(page);
    const [first, second, third] = before;
    const post = await holdPosts(page, PAGE);
    await page.getByRole("button", { name: `przesuń „${first}” niżej` }).click();
    await post.held(1);
    await expect(rows(page).nth(1)).toHaveAttribute("aria-label", first!);
    // The same row's ↓ again, while the first move is still on its way.
    await page.getByRole("button", { name: `przesuń „${first}” niżej` }).click();
    await post.held(2);
    await expect(rows(page).nth(2)).toHaveAttribute("aria-label", first!);
    post.release();
    await expect(saving(page)).toHaveCount(0);
    await expect.poll(() => labels(page)).toEqual([second, third, first, ...before.slice(3)]);
    // What the server kept, read anew.
    await page.reload();
    expect(await labels(page)).toEqual([second, third, first, ...before.slice(3)]);

    // Back as it was, for the other specs.
    await hydrated(page.locator(".ministries-edit form.form").first());
    for (let i = 0; i < 2; i++) {
      await page.getByRole("button", { name: `przesuń „${first}” wyżej` }).click();
      await expect(flash(page)).toHaveText(`Przesunięto służbę „${first}”.`);
      await expect(page.locator(".ministries-edit")).not.toHaveAttribute("aria-busy", "true");
      await expect(saving(page)).toHaveCount(0);
    }
    await expect.poll(() => labels(page)).toEqual(before);
  });

  test("the keyboard's focus stays on the row moved: on ↑ once ↓ has made it the last", async ({ page }) => {
    const before = await labels(page);
    const last = before.length - 1;
    const moved = before[last - 1]!;
    const down = page.getByRole("button", { name: `przesuń „${moved}” niżej` });
    const up = page.getByRole("button", { name: `przesuń „${moved}” wyżej` });
    await down.focus();
    await page.keyboard.press("Enter");
    await expect(rows(page).nth(last)).toHaveAttribute("aria-label", moved);
    // Its ↓ is gone with the row now last: the focus is on its ↑, and Enter moves it back.
    await expect(down).toHaveCount(0);
    await expect(up).toBeFocused();
    await expect(flash(page)).toHaveText(`Przesunięto służbę „${moved}”.`);
    await expect(saving(page)).toHaveCount(0);
    await page.keyboard.press("Enter");
    await expect(rows(page).nth(last - 1)).toHaveAttribute("aria-label", moved);
    await expect(up).toBeFocused();
    await expect(saving(page)).toHaveCount(0);
    await expect.poll(() => labels(page)).toEqual(before);
    await page.reload();
    expect(await labels(page)).toEqual(before);
  });

  test("a rename refused: shown at once, then the stored name back, the message beside the form, the text as typed", async ({
    page,
  }) => {
    const [first] = await labels(page);
    const form = rows(page).nth(0).locator("form.form");
    const people = form.getByLabel("Osoby (jedna w wierszu, w kolejności na stronie)");
    await form.getByLabel("Nazwa służby").fill("Służba przemianowana");
    await people.fill("");
    await form.getByLabel("Opis (opcjonalnie)").fill("Opis wpisany przed odmową");
    const post = await holdPosts(page, PAGE);
    await form.getByRole("button", { name: "zapisz" }).click();
    await post.held();
    await expect(rows(page).nth(0)).toHaveAttribute("aria-label", "Służba przemianowana");
    post.release();
    await expect(rows(page).nth(0)).toHaveAttribute("aria-label", first!);
    await expect(rows(page).nth(0).getByRole("alert")).toHaveText("Wpisz co najmniej jedną osobę.");
    await expect(people).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByLabel("Nazwa służby")).toHaveValue("Służba przemianowana");
    await expect(form.getByLabel("Opis (opcjonalnie)")).toHaveValue("Opis wpisany przed odmową");
    await documentKept(page);
  });

  test("a ministry added shows at once and the form empties once saved; removed, it is gone at once", async ({
    page,
  }) => {
    const name = `E2E Służba ${Date.now().toString(36)}`;
    const add = page.locator("form.form").filter({ has: page.getByRole("button", { name: "dodaj służbę" }) });
    await add.getByLabel("Nazwa służby").fill(name);
    // Refused first (nobody named): the message beside the form, the name kept.
    await add.getByRole("button", { name: "dodaj służbę" }).click();
    await expect(page.locator("form.form:has(button[value=add]) + p.form-error")).toHaveText(
      "Wpisz co najmniej jedną osobę.",
    );
    await expect(add.getByLabel("Nazwa służby")).toHaveValue(name);
    await add.getByLabel("Osoby (jedna w wierszu, w kolejności na stronie)").fill("Jan Kowalski");
    let post = await holdPosts(page, PAGE);
    await add.getByRole("button", { name: "dodaj służbę" }).click();
    await post.held();
    await expect(rows(page).last()).toHaveAttribute("aria-label", name);
    await expect(rows(page).last()).toContainText(name);
    post.release();
    await expect(flash(page)).toHaveText(`Dodano służbę „${name}”.`);
    await expect(rows(page).last().getByLabel("Nazwa służby")).toHaveValue(name);
    await expect(add.getByLabel("Nazwa służby")).toHaveValue("");
    await expect(page.locator("p.form-error")).toHaveCount(0);

    const row = rows(page).last();
    const count = await rows(page).count();
    post = await holdPosts(page, PAGE);
    page.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: "usuń" }).click();
    await post.held();
    await expect(rows(page).filter({ visible: true })).toHaveCount(count - 1);
    await expect(page.getByRole("listitem", { name })).toBeHidden();
    post.release();
    await expect(flash(page)).toHaveText(`Usunięto służbę „${name}”.`);
    await expect(rows(page)).toHaveCount(count - 1);
    await documentKept(page);
  });
});

test.describe("testimonies", () => {
  const PAGE = "/strefapastora/swiadectwa";
  const rows = (page: Page) => page.locator(".testimonies-edit > li");

  test.beforeEach(async ({ page }) => {
    await signIn(page);
    await page.goto(PAGE);
    await hydrated(page.getByRole("button", { name: /^ukryj/ }).first());
    await markDocument(page);
  });

  test("hidden and moved at once, before the server answers, then saved", async ({ page }) => {
    const first = rows(page).nth(0);
    const title = (await first.getByRole("heading").textContent())!;
    const second = (await rows(page).nth(1).getByRole("heading").textContent())!;

    let post = await holdPosts(page, PAGE);
    await first.getByRole("button", { name: /^ukryj/ }).click();
    await post.held();
    await expect(first.getByRole("heading")).toHaveText(`${title} (ukryte)`);
    await expect(first.getByRole("button", { name: /^pokaż/ })).toBeVisible();
    post.release();
    await expect(flash(page)).toHaveText(`Ukryto świadectwo „${title}”: nie widać go na stronie.`);

    post = await holdPosts(page, PAGE);
    await page.getByRole("button", { name: `przesuń „${title}” niżej` }).click();
    await post.held();
    await expect(rows(page).nth(0).getByRole("heading")).toHaveText(second);
    await expect(rows(page).nth(1).getByRole("heading")).toHaveText(`${title} (ukryte)`);
    post.release();
    await expect(flash(page)).toHaveText(`Przesunięto świadectwo „${title}”.`);

    // Back as it was, for the other specs.
    await page.getByRole("button", { name: `przesuń „${title}” wyżej` }).click();
    await expect(rows(page).nth(0).getByRole("heading")).toHaveText(`${title} (ukryte)`);
    await expect(flash(page)).toHaveText(`Przesunięto świadectwo „${title}”.`);
    await rows(page)
      .nth(0)
      .getByRole("button", { name: /^pokaż/ })
      .click();
    await expect(flash(page)).toContainText("jest znów widoczne");
    await expect(rows(page).nth(0).getByRole("heading")).toHaveText(title);
    await documentKept(page);
  });
});

test.describe("church facts", () => {
  const PAGE = "/strefapastora/dane-zboru";

  test("saved by the script: 'Zapisywanie…' while sent, a refusal beside the field, then 'Zapisano'", async ({
    page,
  }) => {
    await signIn(page);
    await page.goto(PAGE);
    const account = page.getByLabel("Numer konta");
    await hydrated(account);
    await markDocument(page);
    const wrong = "61 1090 1014 0000 0712 1981 2875";
    await account.fill(wrong);
    let post = await holdPosts(page, PAGE);
    await page.getByRole("button", { name: "zapisz" }).first().click();
    await post.held();
    await expect(page.getByRole("button", { name: "Zapisywanie…" })).toHaveCount(2);
    await expect(saving(page)).toHaveCount(1);
    await expect(account).toHaveValue(wrong);
    post.release();
    await expect(page.locator("#facts-account-error")).toContainText("błędne cyfry kontrolne");
    await expect(page.locator("p.form-error")).toHaveText("Popraw zaznaczone pola – nic nie zostało zapisane.");
    await expect(account).toHaveValue(wrong);
    await expect(page.getByRole("button", { name: "zapisz" })).toHaveCount(2);

    await account.fill("61109010140000071219812874");
    post = await holdPosts(page, PAGE);
    await page.getByRole("button", { name: "zapisz" }).last().click();
    await post.held();
    await expect(page.getByRole("button", { name: "Zapisywanie…" })).toHaveCount(2);
    await expect(account).toHaveValue("61109010140000071219812874");
    post.release();
    await expect(flash(page)).toHaveText("Zapisano: Numer konta.");
    await expect(account).toHaveValue("61 1090 1014 0000 0712 1981 2874");
    await documentKept(page);

    // Back to the sample account, for the other specs.
    await account.fill(sampleFacts.account);
    await page.getByRole("button", { name: "zapisz" }).first().click();
    await expect(flash(page)).toHaveText("Zapisano: Numer konta.");
    await expect(account).toHaveValue(sampleFacts.account);
  });
});

test.describe("history photos", () => {
  const PAGE = "/strefapastora/zdjecia-historii";
  const rows = (page: Page) => page.locator(".history-photos-edit > li");
  const labels = (page: Page) => rows(page).evaluateAll((li) => li.map((l) => l.getAttribute("aria-label")));

  test("moved, described and removed at once, before the server answers; a refused description kept as typed", async ({
    page,
  }) => {
    const tag = Date.now().toString(36);
    const [a, b] = [`E2E-optymistycznie-a-${tag}.jpg`, `E2E-optymistycznie-b-${tag}.jpg`];
    await signIn(page);
    await page.goto(PAGE);
    await page.getByLabel(/^Wybierz zdjęcia/).setInputFiles([await photo(a, 30), await photo(b, 250)]);
    await page.getByRole("button", { name: "dodaj zdjęcia" }).click();
    await expect(flash(page)).toHaveText("2 z 2 zdjęć dodano");
    await hydrated(rows(page).last().locator("form").first());
    await markDocument(page);
    const before = await labels(page);

    let post = await holdPosts(page, PAGE);
    await page.getByRole("button", { name: `przesuń zdjęcie „${b}” wyżej` }).click();
    await post.held();
    expect(await labels(page)).toEqual([...before.slice(0, -2), b, a]);
    post.release();
    await expect(flash(page)).toHaveText(`Przesunięto zdjęcie „${b}”.`);

    // A description refused (empty): the stored one back in the page, the message beside the form, the field as typed.
    const row = rows(page).filter({ has: page.locator(`input[value="${b}"]`) });
    await row.getByRole("textbox").fill("");
    await row.getByRole("button", { name: "zapisz opis" }).click();
    await expect(row.getByRole("alert")).toHaveText("Opis zdjęcia nie może być pusty.");
    await expect(row).toHaveAttribute("aria-label", b);
    await expect(row.getByRole("textbox")).toHaveValue("");

    const count = await rows(page).count();
    post = await holdPosts(page, PAGE);
    page.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: /^usuń/ }).click();
    await post.held();
    await expect(rows(page).filter({ visible: true })).toHaveCount(count - 1);
    post.release();
    await expect(flash(page)).toHaveText(`Usunięto zdjęcie „${b}”.`);
    await expect(rows(page)).toHaveCount(count - 1);

    // The other one, for the other specs.
    page.once("dialog", (dialog) => void dialog.accept());
    await rows(page)
      .filter({ has: page.locator(`input[value="${a}"]`) })
      .getByRole("button", { name: /^usuń/ })
      .click();
    await expect(flash(page)).toHaveText(`Usunięto zdjęcie „${a}”.`);
    await documentKept(page);
  });
});
