// 'Wydarzenia' in the pastor area, with JavaScript on and off: a form
// refused (a start the spring clock change skips, an end before the start)
// keeps what was typed; a weekly event added with a photo is on /kalendarz
// and in /kalendarz.ics (read by ical.js) at once, its photo on the
// occurrence's page; an edit begun in a second tab
// after another save is refused with the stored version shown.
import type { Page } from "@playwright/test";
import ICAL from "ical.js";
import { expect, flash, signIn, test } from "./fixtures";
import { photo } from "./articles.helpers";
import { removeTestEvents, row } from "./events.helpers";

/** Today's day in Warsaw moved by n days, `YYYY-MM-DD`. */
function warsawDay(n: number): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Warsaw" }).format(new Date());
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

const DAY_NAMES = ["niedziela", "poniedziałek", "wtorek", "środa", "czwartek", "piątek", "sobota"];

/** The starts (Warsaw wall time, `YYYY-MM-DDTHH:MM`) ical.js expands for the event titled so, the first `n`. */
function feedStarts(text: string, title: string, n: number): { start: string; cancelled: boolean }[] {
  const root = new ICAL.Component(ICAL.parse(text));
  for (const tz of root.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(tz);
  const vevents = root.getAllSubcomponents("vevent");
  const master = vevents.find((v) => v.getFirstPropertyValue("summary") === title && !v.hasProperty("recurrence-id"));
  if (!master) return [];
  const uid = master.getFirstPropertyValue("uid");
  // Its own overrides only: without `exceptions`, ical.js relates every RECURRENCE-ID in the file, whatever its UID.
  const event = new ICAL.Event(master, {
    exceptions: vevents.filter((v) => v.hasProperty("recurrence-id") && v.getFirstPropertyValue("uid") === uid),
  });
  const out: { start: string; cancelled: boolean }[] = [];
  const it = event.iterator();
  for (let next = it.next(); next && out.length < n; next = it.next()) {
    const details = event.getOccurrenceDetails(next);
    out.push({
      start: details.startDate.toString().slice(0, 16),
      cancelled: details.item.component.getFirstPropertyValue("status") === "CANCELLED",
    });
  }
  return out;
}

test.afterEach(async ({ page }) => {
  await removeTestEvents(page);
});

/**
 * Signs in and adds a weekly event of four dates from `inDays` days ahead
 * (the second a week later), then opens its edit page.
 */
async function addWeeklySeries(page: Page, name: string, inDays: number, time: string) {
  const title = `${name} ${Date.now().toString(36)}`;
  const start = warsawDay(inDays);
  const second = warsawDay(inDays + 7);
  const dayName = DAY_NAMES[new Date(`${start}T00:00:00Z`).getUTCDay()];
  await signIn(page);
  await page.goto("/strefapastora/wydarzenia/dodaj");
  await page.getByLabel("Tytuł", { exact: true }).fill(title);
  await page.getByLabel("Początek: dzień").fill(start);
  await page.getByLabel("Początek: godzina").fill(time);
  await page.getByLabel(/^co tydzień/).check();
  await page.getByLabel(dayName, { exact: true }).check();
  await page.getByLabel("określoną liczbę razy").check();
  await page.getByLabel("liczba powtórzeń").fill("4");
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(flash(page)).toHaveText(`Dodano wydarzenie „${title}”.`);
  await row(page, title)
    .getByRole("link", { name: /^edytuj/ })
    .click();
  return { title, start, second };
}

test("a weekly event added in the pastor area with a photo is on /kalendarz and in the feed at once", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const visitorContext = await browser.newContext({ baseURL, javaScriptEnabled: test.info().project.name === "js" });
  const visitor = await visitorContext.newPage();
  const title = `E2E Spotkanie ${Date.now().toString(36)}`;
  const start = warsawDay(1);
  const dayName = DAY_NAMES[new Date(`${start}T00:00:00Z`).getUTCDay()];

  await signIn(page);
  await page.getByRole("link", { name: "wydarzenia (kalendarz)" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Wydarzenia");
  await page.getByRole("link", { name: "dodaj wydarzenie" }).click();

  // 02:30 on the spring clock-change day does not exist: refused, everything kept.
  await page.getByLabel("Tytuł", { exact: true }).fill(title);
  await page.getByLabel("Początek: dzień").fill("2027-03-28");
  await page.getByLabel("Początek: godzina").fill("02:30");
  await page.getByLabel("Miejsce").fill("Sala na piętrze");
  await page.getByLabel(/^Opis/).fill("Więcej: https://example.org/spotkanie");
  await page.getByLabel(/^co tydzień/).check();
  await page.getByLabel(dayName, { exact: true }).check();
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(page.getByText("2027-03-28 o 02:30 nie istnieje", { exact: false })).toBeVisible();
  await expect(page.getByLabel("Tytuł", { exact: true })).toHaveValue(title);
  await expect(page.getByLabel("Miejsce")).toHaveValue("Sala na piętrze");
  await expect(page.getByLabel(dayName, { exact: true })).toBeChecked();
  await expect(page.getByLabel(/^co tydzień/)).toBeChecked();

  // An end before the start: refused next to the end.
  await page.getByLabel("Początek: dzień").fill(start);
  await page.getByLabel("Początek: godzina").fill("18:30");
  await page.getByLabel("Koniec: godzina").fill("17:00");
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(page.getByText("Koniec musi być później niż początek.")).toBeVisible();
  await expect(page.getByLabel("Początek: godzina")).toHaveValue("18:30");

  await page.getByLabel("Koniec: godzina").fill("20:00");
  await page.getByLabel(/^Zdjęcie/).setInputFiles(await photo("spotkanie.jpg", { width: 1600, height: 900 }));
  await page.getByRole("button", { name: "dodaj", exact: true }).click();
  await expect(flash(page)).toHaveText(`Dodano wydarzenie „${title}”.`);
  await expect(row(page, title)).toContainText("opublikowany");
  await expect(row(page, title)).toContainText(`co tydzień: ${dayName}`);

  // The visitor's calendar: eight weeks, one occurrence a week.
  await visitor.goto("/kalendarz");
  await expect(visitor.getByRole("link", { name: title })).toHaveCount(8);

  // The occurrence's page shows the photo (described by the title), in AVIF and WebP sizes.
  await visitor.getByRole("link", { name: title }).first().click();
  const shown = visitor.getByRole("img", { name: title });
  await expect(shown).toHaveJSProperty("complete", true);
  expect(await shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(visitor.locator('picture source[type="image/avif"]')).toHaveCount(1);

  // The feed, read by an independent parser.
  const feed = await (await visitor.request.get("/kalendarz.ics")).text();
  expect(feedStarts(feed, title, 3)).toEqual([
    { start: `${start}T18:30`, cancelled: false },
    { start: `${warsawDay(8)}T18:30`, cancelled: false },
    { start: `${warsawDay(15)}T18:30`, cancelled: false },
  ]);
  await visitorContext.close();
});

test("an edit begun before another tab saved is refused with the stored version shown", async ({ page }) => {
  const title = `E2E Próba ${Date.now().toString(36)}`;
  await signIn(page);
  await page.goto("/strefapastora/wydarzenia/dodaj");
  await page.getByLabel("Tytuł", { exact: true }).fill(title);
  await page.getByLabel("Początek: dzień").fill(warsawDay(3));
  await page.getByLabel("Cały dzień (bez godziny)").check();
  await page.getByRole("button", { name: "zapisz jako szkic" }).click();
  await expect(flash(page)).toHaveText(`Dodano wydarzenie „${title}” jako szkic.`);
  await expect(row(page, title)).toContainText("szkic");

  const second = await page.context().newPage();
  await row(page, title)
    .getByRole("link", { name: /^edytuj/ })
    .click();
  await expect(page).toHaveURL(/\/strefapastora\/wydarzenia\/edytuj\/\d+$/);
  await second.goto(page.url());
  await page.getByLabel("Miejsce").fill("Kaplica");
  await page.getByRole("button", { name: "zapisz jako szkic" }).click();
  await expect(flash(page)).toHaveText(`Zapisano wydarzenie „${title}” jako szkic.`);

  await second.getByLabel("Miejsce").fill("Ogród");
  await second.getByRole("button", { name: "zapisz jako szkic" }).click();
  await expect(second.locator(".form-error")).toContainText("Ktoś zapisał to wydarzenie w innej karcie");
  await expect(second.locator(".conflict")).toContainText("Kaplica");
  await expect(second.getByLabel("Miejsce")).toHaveValue("Ogród");
  await second.close();
});

test("one occurrence cancelled is marked on /kalendarz and CANCELLED in the feed; moved; restored", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const visitorContext = await browser.newContext({ baseURL, javaScriptEnabled: test.info().project.name === "js" });
  const visitor = await visitorContext.newPage();
  const { title, start, second } = await addWeeklySeries(page, "E2E Modlitwa", 2, "19:00");

  // The second occurrence cancelled: still listed, marked, in both.
  const terms = page.locator(".event-occurrences li");
  await expect(terms).toHaveCount(4);
  await terms
    .nth(1)
    .getByRole("button", { name: /^odwołaj/ })
    .click();
  await expect(flash(page)).toHaveText(`Odwołano termin ${second} wydarzenia „${title}”.`);
  await expect(terms.nth(1)).toContainText("(odwołane)");
  await visitor.goto("/kalendarz");
  const shown = visitor.locator(".occurrences li").filter({ hasText: title });
  await expect(shown).toHaveCount(4);
  await expect(shown.nth(1)).toContainText("odwołane");
  await expect(shown.nth(0)).not.toContainText("odwołane");
  const feed = await (await visitor.request.get("/kalendarz.ics")).text();
  expect(feedStarts(feed, title, 5)).toEqual([
    { start: `${start}T19:00`, cancelled: false },
    { start: `${second}T19:00`, cancelled: true },
    { start: `${warsawDay(16)}T19:00`, cancelled: false },
    { start: `${warsawDay(23)}T19:00`, cancelled: false },
  ]);

  // Restored, then the third moved a day later: a bad time is refused with the day kept.
  await terms
    .nth(1)
    .getByRole("button", { name: /^przywróć/ })
    .click();
  await expect(flash(page)).toHaveText(`Przywrócono termin ${second} wydarzenia „${title}”.`);
  await expect(terms.nth(1)).not.toContainText("odwołane");
  await terms
    .nth(2)
    .getByRole("link", { name: /^przenieś/ })
    .click();
  await page.getByLabel("Nowy dzień").fill(warsawDay(17));
  await page.getByLabel("Nowa godzina początku").fill("20:00");
  await page.getByLabel("Nowa godzina końca (opcjonalnie)").fill("19:00");
  await page.getByRole("button", { name: "przenieś", exact: true }).click();
  await expect(page.getByText("Koniec musi być później niż początek.")).toBeVisible();
  await expect(page.getByLabel("Nowy dzień")).toHaveValue(warsawDay(17));
  await page.getByLabel("Nowa godzina końca (opcjonalnie)").fill("21:00");
  await page.getByRole("button", { name: "przenieś", exact: true }).click();
  await expect(flash(page)).toHaveText(`Przeniesiono termin ${warsawDay(16)} wydarzenia „${title}”.`);
  await expect(terms.nth(2)).toContainText(`(przeniesione z ${warsawDay(16)})`);
  const moved = await (await visitor.request.get("/kalendarz.ics")).text();
  expect(feedStarts(moved, title, 5).map((o) => o.start)).toEqual([
    `${start}T19:00`,
    `${second}T19:00`,
    `${warsawDay(17)}T20:00`,
    `${warsawDay(23)}T19:00`,
  ]);
  await visitorContext.close();
});

test("one occurrence removed is gone from /kalendarz, its page and the month, an EXDATE in the feed; put back", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const visitorContext = await browser.newContext({ baseURL, javaScriptEnabled: test.info().project.name === "js" });
  const visitor = await visitorContext.newPage();
  const { title, start, second } = await addWeeklySeries(page, "E2E Próba", 3, "18:00");
  await expect(page).toHaveURL(/\/strefapastora\/wydarzenia\/edytuj\/\d+$/);
  const editUrl = page.url();

  // Removed on the occurrence's own page.
  const terms = page.locator(".event-occurrences li");
  await expect(terms).toHaveCount(4);
  await terms
    .nth(1)
    .getByRole("link", { name: /^przenieś/ })
    .click();
  await page.getByRole("button", { name: "usuń ten termin" }).click();
  await expect(flash(page)).toHaveText(`Usunięto termin ${second} wydarzenia „${title}” z kalendarza.`);
  await expect(page).toHaveURL(editUrl);
  // The pastor still sees it, marked, to put it back; nothing else changed.
  await expect(terms).toHaveCount(4);
  await expect(terms.nth(1)).toContainText("(usunięte z kalendarza)");
  await expect(terms.nth(1).getByRole("button", { name: /^odwołaj/ })).toHaveCount(0);
  await expect(terms.nth(2)).not.toContainText("usunięte");

  await visitor.goto("/kalendarz");
  const shown = visitor.locator(".occurrences li").filter({ hasText: title });
  await expect(shown).toHaveCount(3);
  await expect(shown.filter({ hasText: "odwołane" })).toHaveCount(0);
  const href = await shown.first().getByRole("link").getAttribute("href");
  const removedPage = href!.replace(start, second);
  expect(removedPage).toMatch(new RegExp(`^/kalendarz/\\d+/${second}$`));
  expect((await visitor.request.get(removedPage)).status()).toBe(404);
  expect((await visitor.request.get(href!.replace(start, warsawDay(17)))).status()).toBe(200);
  await visitor.goto(`/kalendarz?miesiac=${second.slice(0, 7)}`);
  await expect(visitor.locator("table.month").getByRole("link", { name: title })).toHaveCount(
    [start, warsawDay(17), warsawDay(24)].filter((d) => d.slice(0, 7) === second.slice(0, 7)).length,
  );
  const feed = await (await visitor.request.get("/kalendarz.ics")).text();
  expect(feed).toContain(`EXDATE;TZID=Europe/Warsaw:${second.replaceAll("-", "")}T180000`);
  expect(feed).not.toContain(`RECURRENCE-ID;TZID=Europe/Warsaw:${second.replaceAll("-", "")}`);
  expect(feedStarts(feed, title, 5)).toEqual([
    { start: `${start}T18:00`, cancelled: false },
    { start: `${warsawDay(17)}T18:00`, cancelled: false },
    { start: `${warsawDay(24)}T18:00`, cancelled: false },
  ]);

  await page.goto("/strefapastora/historia-zmian");
  await expect(page.getByText(`${title} – usunięto z kalendarza termin ${second}`)).toBeVisible();

  // Put back from the edit page's list.
  await page.goto(editUrl);
  await terms
    .nth(1)
    .getByRole("button", { name: /^przywróć/ })
    .click();
  await expect(flash(page)).toHaveText(`Przywrócono termin ${second} wydarzenia „${title}”.`);
  await expect(terms.nth(1)).not.toContainText("usunięte");
  await visitor.goto("/kalendarz");
  await expect(shown).toHaveCount(4);
  expect((await visitor.request.get(removedPage)).status()).toBe(200);
  const back = await (await visitor.request.get("/kalendarz.ics")).text();
  expect(feedStarts(back, title, 5).map((o) => o.start)).toEqual([
    `${start}T18:00`,
    `${second}T18:00`,
    `${warsawDay(17)}T18:00`,
    `${warsawDay(24)}T18:00`,
  ]);
  await visitorContext.close();
});
