// The pastor's forms while the database is away, in a browser with JavaScript
// on and off (issue 27): a testimony or a ministry sent during the outage is
// answered with 'Nie zapisano zmian' and everything typed, never an error
// page, and the kept testimony saves once the database is back; the bin's and
// the devices' buttons answer in Polish too, and so do a list reordered by
// dragging, an album, an article's delete, the /onas photos, two-factor and
// a page opened from a link. A server of its own (with the demo content)
// reaches PostgreSQL through a TCP proxy that the tests cut.
import type { Browser, Page } from "@playwright/test";
import { type RunningServer, startBuiltServer } from "../faults/server";
import { createScratchDatabase } from "../setup/database";
import { startTcpProxy, throughProxy } from "../tcp-proxy";
import { confirmDelete } from "./bin.helpers";
import { expect, flash, hydrated, test } from "./fixtures";
import { editorOrder, editorRows } from "./galleries.helpers";
import { keyboardMove } from "./sortable.helpers";

const EMAIL = "awaria@example.org";
const PASSWORD = "haslo-awaria-przegladarki-2026";
const TEXT = "Pierwszy akapit wpisany podczas awarii.\n\nDrugi akapit: „cytat” & <znaki>.";

let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
let proxy: Awaited<ReturnType<typeof startTcpProxy>> | undefined;
let server: RunningServer | undefined;

const js = () => test.info().project.name === "js";

// Playwright reads a hook's fixtures from this pattern; this one needs none.
// eslint-disable-next-line no-empty-pattern
test.beforeAll(async ({}, workerInfo) => {
  test.setTimeout(120_000);
  scratch = await createScratchDatabase("e2eout");
  proxy = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(scratch.url).port || 5432) });
  // Past the slots of the shared servers (tests/e2e/fixtures.ts) when a port base is given.
  const port = process.env.E2E_PORT ? Number(process.env.E2E_PORT) + 10 + workerInfo.parallelIndex : null;
  server = await startBuiltServer({
    DATABASE_URL: throughProxy(scratch.url, proxy.port),
    ADMIN_EMAIL: EMAIL,
    ADMIN_PASSWORD: PASSWORD,
    ARGON2_TEST_CHEAP: "1",
    SEED_DEMO: "1",
    ...(port ? { PORT: String(port) } : {}),
  });
});

test.afterEach(() => proxy?.restore());

test.afterAll(async () => {
  await server?.stop();
  await proxy?.close();
  await scratch?.drop();
});

/** A browser signed in on the outage server, with JavaScript as in this project. */
async function pastorPage(browser: Browser, viewport?: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ baseURL: server!.base, javaScriptEnabled: js(), viewport });
  const page = await context.newPage();
  await page.goto("/strefapastora/logowanie");
  await page.getByLabel("Login").fill(EMAIL);
  await page.getByLabel("Hasło").fill(PASSWORD);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/strefapastora$/);
  return page;
}

const notSaved = (page: Page) => page.getByRole("heading", { name: "Nie zapisano zmian" });
/** What a page says beside its form when a script's post met the outage. */
const refusedInPage = (page: Page) => page.getByRole("alert").filter({ hasText: "Nie zapisano zmian: baza danych" });

test("a sign-in sent during the outage says so in Polish and keeps the e-mail", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server!.base, javaScriptEnabled: js() });
  const page = await context.newPage();
  await page.goto("/strefapastora/logowanie");
  await hydrated(page.locator("form.form"));
  await page.getByLabel("Login").fill(EMAIL);
  await page.getByLabel("Hasło").fill(PASSWORD);
  proxy!.cut();
  await page.getByRole("button", { name: "Login" }).click();
  // With a script the sign-in page stays, saying so; without, the 'not saved' page shows the form again.
  await expect(js() ? refusedInPage(page) : notSaved(page)).toBeVisible();
  await expect(page.getByLabel("Login")).toHaveValue(EMAIL);
  await expect(page.getByLabel("Hasło")).toHaveValue(js() ? PASSWORD : "");
  await context.close();
});

test("a testimony sent during the outage comes back with everything typed, and saves once the database is back", async ({
  browser,
}) => {
  const page = await pastorPage(browser);
  await page.goto("/strefapastora/swiadectwa/dodaj");
  await hydrated(page.locator("form.form"));
  await page.getByLabel("Tytuł (np. imię)").fill("Świadectwo z awarii");
  await page.getByLabel("Treść").fill(TEXT);
  await page.getByLabel("Podpis (opcjonalnie)").fill("Jan z Wieliczki");
  await page.getByLabel("Ukryte (szkic, niewidoczne na stronie)").check();

  proxy!.cut();
  await page.getByRole("button", { name: "dodaj" }).click();
  await expect(notSaved(page)).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("spróbuj ponownie");
  await expect(page.getByLabel("Tytuł")).toHaveValue("Świadectwo z awarii");
  await expect(page.getByLabel("Treść")).toHaveValue(TEXT);
  await expect(page.getByLabel("Podpis")).toHaveValue("Jan z Wieliczki");
  await expect(page.getByRole("checkbox", { name: "Ukryte (szkic, niewidoczne na stronie)" })).toBeChecked();

  proxy!.restore();
  // The pool may need a moment to reconnect: sent again until it is saved.
  await expect(async () => {
    if (await notSaved(page).isVisible()) await page.getByRole("button", { name: "Spróbuj ponownie zapisać" }).click();
    await expect(flash(page)).toContainText("Świadectwo z awarii", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await page.getByRole("link", { name: /^edytuj\W+Świadectwo z awarii$/ }).click();
  await expect(page.getByLabel("Treść")).toHaveValue(TEXT);
  await page.context().close();
});

test("an event added during the outage comes back with everything typed, its fields named as in its form", async ({
  browser,
}) => {
  const page = await pastorPage(browser);
  await page.goto("/strefapastora/wydarzenia/dodaj");
  await hydrated(page.locator("form.event-form"));
  await page.getByLabel("Tytuł").fill("Wieczór z awarii");
  await page.getByLabel("Początek: dzień").fill("2027-01-15");
  await page.getByLabel("Początek: godzina").fill("19:00");
  await page.getByLabel("Miejsce").fill("Sala na piętrze");

  proxy!.cut();
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  // With a script (the upload script sends the form) the page stays, saying so; without, the 'not saved' page shows the fields again.
  await expect(js() ? refusedInPage(page) : notSaved(page)).toBeVisible();
  await expect(page.getByLabel("Tytuł")).toHaveValue("Wieczór z awarii");
  await expect(page.getByLabel("Początek: dzień")).toHaveValue("2027-01-15");
  await expect(page.getByLabel("Początek: godzina")).toHaveValue("19:00");
  await expect(page.getByLabel("Miejsce")).toHaveValue("Sala na piętrze");
  await page.context().close();
});

test("a ministry saved or added during the outage comes back with everything typed", async ({ browser }) => {
  const page = await pastorPage(browser);
  await page.goto("/strefapastora/sluzby");
  const first = page.locator(".ministries-edit form.form").first();
  await hydrated(first);
  const name = await first.getByLabel("Nazwa służby").inputValue();
  await first.getByLabel("Osoby (jedna w wierszu, w kolejności na stronie)").fill("Anna Nowak\nPiotr Zieliński");
  await first.getByLabel("Opis (opcjonalnie)").fill(TEXT);

  proxy!.cut();
  await first.getByRole("button", { name: "zapisz" }).click();
  if (js()) {
    // Sent by the script: the page stays, saying so beside the form, the fields as typed.
    await expect(refusedInPage(page)).toBeVisible();
    await expect(first.getByLabel("Nazwa służby")).toHaveValue(name);
    await expect(first.getByLabel("Osoby (jedna w wierszu, w kolejności na stronie)")).toHaveValue(
      "Anna Nowak\nPiotr Zieliński",
    );
    await expect(first.getByLabel("Opis (opcjonalnie)")).toHaveValue(TEXT);
  } else {
    await expect(notSaved(page)).toBeVisible();
    await expect(page.getByLabel("Nazwa")).toHaveValue(name);
    await expect(page.getByLabel("Osoby")).toHaveValue("Anna Nowak\nPiotr Zieliński");
    await expect(page.getByLabel("Opis")).toHaveValue(TEXT);
  }

  proxy!.restore();
  await page.goto("/strefapastora/sluzby");
  const added = page.locator("form.form").filter({ has: page.getByRole("button", { name: "dodaj służbę" }) });
  await hydrated(added);
  const count = await page.locator(".ministries-edit > li").count();
  await added.getByLabel("Nazwa służby").fill("Służba modlitewna");
  await added.getByLabel("Osoby (jedna w wierszu, w kolejności na stronie)").fill("Ewa Szymańska");
  proxy!.cut();
  await added.getByRole("button", { name: "dodaj służbę" }).click();
  if (js()) {
    await expect(refusedInPage(page)).toBeVisible();
    // The new row shown while it was sent is gone: the list is the server's again.
    await expect(page.locator(".ministries-edit > li")).toHaveCount(count);
    await expect(added.getByLabel("Nazwa służby")).toHaveValue("Służba modlitewna");
    await expect(added.getByLabel("Osoby (jedna w wierszu, w kolejności na stronie)")).toHaveValue("Ewa Szymańska");
  } else {
    await expect(notSaved(page)).toBeVisible();
    await expect(page.getByLabel("Nazwa")).toHaveValue("Służba modlitewna");
    await expect(page.getByLabel("Osoby")).toHaveValue("Ewa Szymańska");
  }
  await page.context().close();
});

test("the congregation's facts and a testimony hidden during the outage: the page stays as typed, or the 'not saved' page", async ({
  browser,
}) => {
  const page = await pastorPage(browser);
  await page.goto("/strefapastora/dane-zboru");
  const account = page.getByLabel("Numer konta");
  await hydrated(account);
  const typed = "61 1090 1014 0000 0712 1981 2874";
  await account.fill(typed);
  await page.getByLabel("Miejscowość").fill("Wieliczka z awarii");
  proxy!.cut();
  await page.getByRole("button", { name: "zapisz" }).first().click();
  if (js()) {
    await expect(refusedInPage(page)).toBeVisible();
    await expect(page.getByRole("button", { name: "zapisz" }).first()).toBeVisible();
    await expect(account).toHaveValue(typed);
    await expect(page.getByLabel("Miejscowość")).toHaveValue("Wieliczka z awarii");
  } else {
    await expect(notSaved(page)).toBeVisible();
    await expect(page.getByLabel("Numer konta")).toHaveValue(typed);
    await expect(page.getByLabel("Miejscowość")).toHaveValue("Wieliczka z awarii");
  }

  // A testimony hidden: with the script, the draft mark shown at once goes once the server cannot save it.
  proxy!.restore();
  await page.goto("/strefapastora/swiadectwa");
  const row = page.locator(".testimonies-edit > li").first();
  const hide = row.getByRole("button", { name: /^ukryj/ });
  await hydrated(hide);
  proxy!.cut();
  await hide.click();
  if (js()) {
    await expect(row.getByRole("alert")).toContainText("Nie zapisano zmian: baza danych");
    await expect(row.locator(".draft-mark")).toHaveCount(0);
    await expect(row.getByRole("button", { name: /^ukryj/ })).toBeVisible();
  } else {
    await expect(notSaved(page)).toBeVisible();
  }
  await page.context().close();
});

test("the bin's and the devices' buttons answer in Polish during the outage, never an error page", async ({
  browser,
}) => {
  const page = await pastorPage(browser);
  // Something in the bin, and a second device signed in.
  const other = await pastorPage(browser);
  await page.goto("/strefapastora/swiadectwa");
  await confirmDelete(page, page.getByRole("button", { name: /^usuń/ }).first(), "tak, do kosza");
  await expect(flash(page)).toContainText("do kosza");

  await page.goto("/strefapastora/kosz");
  const restore = page.getByRole("button", { name: /^przywróć/ }).first();
  await hydrated(page.locator("form", { has: restore }));
  proxy!.cut();
  await restore.click();
  await expect(notSaved(page)).toBeVisible();
  await expect(page.getByRole("button", { name: "Spróbuj ponownie zapisać" })).toBeVisible();

  proxy!.restore();
  await page.goto("/strefapastora/urzadzenia");
  const signOutOthers = page.getByRole("button", { name: "wyloguj wszystkie inne" });
  await hydrated(page.locator("form", { has: signOutOthers }));
  proxy!.cut();
  await signOutOthers.click();
  await expect(notSaved(page)).toBeVisible();
  await other.context().close();
  await page.context().close();
});

test("a list reordered and an album saved during the outage stay as they were and say so in the page", async ({
  browser,
}) => {
  // Tall enough that the whole album editor is on screen: a keyboard drag moves in even steps.
  const page = await pastorPage(browser, { width: 1280, height: 2400 });
  await page.goto("/strefapastora/sluzby");
  const rows = page.locator(".ministries-edit > li");
  const [first, second] = await rows.evaluateAll((li) => li.slice(0, 2).map((l) => l.getAttribute("aria-label")!));
  if (js()) {
    const handle = page.getByRole("button", { name: `przeciągnij „${second}”` });
    await hydrated(handle);
    proxy!.cut();
    await keyboardMove(page, handle, "ArrowUp", 1);
    await expect(refusedInPage(page)).toBeVisible();
    await expect(rows.nth(0)).toHaveAttribute("aria-label", first);
    await expect(rows.nth(1)).toHaveAttribute("aria-label", second);
  } else {
    proxy!.cut();
    await page.getByRole("button", { name: `przesuń „${second}” wyżej` }).click();
    await expect(notSaved(page)).toBeVisible();
  }
  proxy!.restore();
  await page.goto("/strefapastora/sluzby");
  await expect(rows.nth(0)).toHaveAttribute("aria-label", first);

  // An album of the demo content: its photos dragged (with JavaScript), its title changed and saved.
  await page.goto(`/strefapastora/galeria/edytuj/${encodeURIComponent("Koncert uwielbienia")}`);
  const form = page.locator("form.gallery-form");
  await hydrated(form);
  const order = await editorOrder(page);
  proxy!.cut();
  if (js()) {
    // Past the middle of the next row, in the list's 25 px steps, each step seen before the next.
    const row = editorRows(page).first();
    const presses = Math.ceil(((await row.boundingBox())!.height + 10) / 25);
    await page.getByRole("button", { name: `Przenieś zdjęcie ${order[0]}` }).focus();
    await page.keyboard.press("Space");
    const start = (await row.boundingBox())!.y;
    for (let i = 1; i <= presses; i++) {
      await page.keyboard.press("ArrowDown");
      await expect.poll(async () => Math.round((await row.boundingBox())!.y - start)).toBe(25 * i);
    }
    await page.keyboard.press("Space");
    await expect(refusedInPage(page)).toBeVisible();
    await expect.poll(() => editorOrder(page)).toEqual(order);
  }
  await page.getByLabel("TYTUŁ").fill("Koncert z awarii");
  await page.getByRole("button", { name: "zapisz", exact: true }).click();
  if (js()) {
    await expect(form.locator("> p.form-error")).toContainText("Nie zapisano zmian: baza danych");
    await expect(page.getByLabel("TYTUŁ")).toHaveValue("Koncert z awarii");
  } else {
    await expect(notSaved(page)).toBeVisible();
    await expect(page.getByLabel("Tytuł")).toHaveValue("Koncert z awarii");
  }
  await page.context().close();
});

test("an article's delete, the /onas photos, two-factor and a page opened from a link answer in Polish during the outage", async ({
  browser,
}) => {
  const page = await pastorPage(browser);
  await page.goto("/strefapastora/artykuly");
  const removeForm = page
    .locator("form")
    .filter({ has: page.getByRole("button", { name: /^usuń/ }) })
    .first();
  const remove = removeForm.getByRole("button", { name: /^usuń/ });
  await hydrated(removeForm);
  proxy!.cut();
  if (js()) page.once("dialog", (dialog) => void dialog.accept());
  await remove.click();
  await expect(notSaved(page)).toBeVisible();

  proxy!.restore();
  await page.goto("/strefapastora/zdjecia-historii");
  const description = page.getByLabel("Opis zdjęcia 1");
  await hydrated(description);
  await description.fill("Opis wpisany podczas awarii");
  proxy!.cut();
  await page.getByRole("button", { name: "zapisz opis" }).first().click();
  if (js()) {
    await expect(refusedInPage(page)).toBeVisible();
    await expect(description).toHaveValue("Opis wpisany podczas awarii");
  } else {
    await expect(notSaved(page)).toBeVisible();
    await expect(page.getByLabel("Opis zdjęcia")).toHaveValue("Opis wpisany podczas awarii");
  }

  proxy!.restore();
  await page.goto("/strefapastora/weryfikacja-dwuetapowa");
  const start = page.getByRole("button", { name: "włącz weryfikację dwuetapową" });
  await hydrated(start);
  proxy!.cut();
  await start.click();
  await expect(notSaved(page)).toBeVisible();

  // A page opened from a link of a page already shown (with JavaScript, the router fetches its data).
  proxy!.restore();
  await page.goto("/strefapastora/artykuly");
  const link = page.getByRole("link", { name: "dodaj nowy artykuł" });
  await hydrated(link);
  proxy!.cut();
  await link.click();
  await expect(page.getByRole("heading", { name: "Strefa pastora chwilowo niedostępna" })).toBeVisible();
  await page.context().close();
});
