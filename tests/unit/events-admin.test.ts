// The pastor's events on the real database: the form's checks (Polish
// messages by field, what was typed kept), add as published, draft or
// scheduled, edit with the two-tab version check (SEQUENCE and the content
// version rise), the bin and back; the calendar and the feed (read by
// ical.js) follow at once.
import ICAL from "ical.js";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { listActivity } from "~/features/activity/activity.server";
import { listBin, purgeItem, restoreEvent } from "~/features/bin/bin.server";
import { occurrencesOf, publicEvents } from "~/features/events/events.server";
import { submitEventForm } from "~/features/events/event-form.server";
import {
  addEvent,
  binEvent,
  checkEvent,
  getPastorEvent,
  listPastorEvents,
  updateEvent,
  formValuesOf,
  changeOccurrence,
  nextOccurrences,
} from "~/features/events/events-admin.server";
import { EMPTY_EVENT_FORM, type EventFormValues, repeatSummary } from "~/features/events/event-fields";
import { calendarFeed } from "~/features/events/feed.server";
import { eventJsonLd } from "~/features/events/event-json-ld";
import { loader as occurrenceLoader } from "~/routes/kalendarz.$id_.$day";
import { EventPage } from "~/features/events/event-page";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { clock } from "~/services/clock.server";
import { currentContentVersion } from "~/services/content-version.server";
import { resetDatabase } from "../helpers";

const actor = { email: "pastor@example.org" };
const ORIGIN = "https://zbor.example.org";
const NOW = new Date("2027-01-05T12:00:00Z");

const form = (v: Partial<EventFormValues>): EventFormValues => ({ ...EMPTY_EVENT_FORM, ...v });

const weekly = form({
  title: "Grupa domowa",
  startDate: "2027-01-05",
  startTime: "18:30",
  endTime: "20:00",
  place: "u Nowaków",
  description: "Zapraszamy: https://example.org/grupa",
  repeat: "weekly",
  interval: "1",
  days: ["TU"],
  ends: "never",
});

/** The occurrences ical.js expands from the feed for one UID, as ISO starts with their status. */
function feedOccurrences(text: string, uid: string, from: Date, to: Date) {
  const root = new ICAL.Component(ICAL.parse(text));
  for (const tz of root.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(tz);
  const vevents = root.getAllSubcomponents("vevent").filter((v) => v.getFirstPropertyValue("uid") === uid);
  const master = vevents.find((v) => !v.hasProperty("recurrence-id"));
  if (!master) return [];
  // Its own overrides only: without `exceptions`, ical.js relates every RECURRENCE-ID in the file, whatever its UID.
  const event = new ICAL.Event(master, { exceptions: vevents.filter((v) => v.hasProperty("recurrence-id")) });
  const out: { start: string; cancelled: boolean }[] = [];
  const it = event.iterator();
  for (let next = it.next(); next; next = it.next()) {
    const details = event.getOccurrenceDetails(next);
    const start = details.startDate.toJSDate();
    if (start >= to) break;
    if (start < from) continue;
    out.push({
      start: start.toISOString(),
      cancelled: details.item.component.getFirstPropertyValue("status") === "CANCELLED",
    });
  }
  return out;
}

beforeAll(async () => {
  await resetDatabase();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the event form's checks", () => {
  it("refuses a day that does not exist, in Polish, by field", () => {
    const r = checkEvent(form({ ...weekly, startDate: "2027-02-30" }));
    expect(r).toMatchObject({ ok: false, errors: { startDate: expect.stringContaining("30 lutego") } });
  });

  it("refuses an end before the start", () => {
    expect(checkEvent(form({ ...weekly, endTime: "17:00" }))).toMatchObject({
      ok: false,
      errors: { end: "Koniec musi być później niż początek." },
    });
    expect(
      checkEvent(form({ ...weekly, allDay: true, startDate: "2027-05-10", endDate: "2027-05-09", repeat: "none" })),
    ).toMatchObject({ ok: false, errors: { end: "Koniec nie może być przed początkiem." } });
  });

  it("refuses a start the spring clock change skips (02:30 on 2027-03-28)", () => {
    const r = checkEvent(form({ title: "Czuwanie", startDate: "2027-03-28", startTime: "02:30" }));
    expect(r).toMatchObject({ ok: false, errors: { startTime: expect.stringContaining("zmiana czasu") } });
    // The hour that happens twice in autumn exists.
    expect(checkEvent(form({ title: "Czuwanie", startDate: "2027-10-31", startTime: "02:30" })).ok).toBe(true);
  });

  it("keeps the interval within 1–52 and the count within 1–500", () => {
    for (const interval of ["0", "53", "dwa"]) {
      expect(checkEvent(form({ ...weekly, interval }))).toMatchObject({
        ok: false,
        errors: { interval: "Podaj liczbę od 1 do 52." },
      });
    }
    for (const count of ["0", "501", ""]) {
      expect(checkEvent(form({ ...weekly, ends: "count", count }))).toMatchObject({
        ok: false,
        errors: { count: "Podaj liczbę powtórzeń od 1 do 500." },
      });
    }
    expect(checkEvent(form({ ...weekly, interval: "52", ends: "count", count: "500" })).ok).toBe(true);
  });

  it("reads a typed date without a date input and starts a weekly rule on its first day", () => {
    const r = checkEvent(form({ ...weekly, startDate: "4.1.2027", days: ["FR", "TU"] }));
    // 4 January 2027 is a Monday: the first occurrence is Tuesday the 5th.
    expect(r).toMatchObject({ ok: true, values: { startDate: "2027-01-05", weekdays: ["TU", "FR"] } });
  });

  it("hands back everything typed with the messages", async () => {
    const typed = { ...weekly, startDate: "2027-02-30", interval: "60", description: "Opis\n\nz akapitem" };
    const { days: _days, allDay: _allDay, removeImage: _removeImage, ...text } = typed;
    const params = new URLSearchParams({ ...text, "day-TU": "1", intent: "publish" });
    const outcome = await submitEventForm(params, { kind: "add" }, { id: 1, ...actor });
    expect(outcome).toMatchObject({ ok: false, status: 400, refused: { values: typed } });
    if (outcome.ok || !outcome.refused) throw new Error("refused expected");
    expect(Object.keys(outcome.refused.errors).sort()).toEqual(["interval", "startDate"].sort());
  });
});

describe("the events module", () => {
  it("adds a weekly event: on the calendar and in the feed at once, with a history entry", async () => {
    vi.spyOn(clock, "now").mockReturnValue(NOW);
    const before = await currentContentVersion();
    const r = await addEvent(weekly, { intent: "publish", actor });
    expect(r).toMatchObject({ ok: true, title: "Grupa domowa" });
    if (!r.ok) return;
    expect(await currentContentVersion()).toBeGreaterThan(before);
    const list = await publicEvents({ now: NOW });
    const shown = occurrencesOf(list, NOW, new Date("2027-01-27T00:00:00Z")).filter((o) => o.eventId === r.id);
    expect(shown.map((o) => o.date)).toEqual(["2027-01-05", "2027-01-12", "2027-01-19", "2027-01-26"]);
    const feed = calendarFeed(list, ORIGIN, "Kalendarz", NOW);
    expect(feedOccurrences(feed, `wydarzenie-${r.id}@zbor.example.org`, NOW, new Date("2027-01-20T00:00:00Z"))).toEqual(
      [
        { start: "2027-01-05T17:30:00.000Z", cancelled: false },
        { start: "2027-01-12T17:30:00.000Z", cancelled: false },
        { start: "2027-01-19T17:30:00.000Z", cancelled: false },
      ],
    );
    const [entry] = await listActivity({ now: NOW });
    expect(entry).toMatchObject({ action: "created", subjectKind: "event", subjectTitle: "Grupa domowa" });
  });

  it("shows the description's addresses on the occurrence's page as links that open apart", async () => {
    vi.spyOn(clock, "now").mockReturnValue(NOW);
    const description = "Więcej: https://example.org/spotkanie?dzien=1\n\nDo zobaczenia.";
    const r = await addEvent(form({ ...weekly, title: "Spotkanie z linkiem", description }), {
      intent: "publish",
      actor,
    });
    if (!r.ok) throw new Error("saved expected");
    const res = await occurrenceLoader({
      request: new Request(`${ORIGIN}/kalendarz/${r.id}/2027-01-12`),
      params: { id: String(r.id), day: "2027-01-12" },
      context: {},
    });
    const html = renderToStaticMarkup(createElement(EventPage, { e: res.data.e }));
    expect(html).toContain(
      '<p><span>Więcej: </span><a href="https://example.org/spotkanie?dzien=1" target="_blank" rel="noopener noreferrer">https://example.org/spotkanie?dzien=1</a></p><p><span>Do zobaczenia.</span></p>',
    );
  });

  it("keeps a draft and a scheduled event off the calendar until their moment", async () => {
    vi.spyOn(clock, "now").mockReturnValue(NOW);
    const draft = await addEvent(form({ ...weekly, title: "Szkic" }), { intent: "draft", actor });
    const later = await addEvent(form({ ...weekly, title: "Zaplanowane", publishAt: "2027-01-10T08:00" }), {
      intent: "publish",
      actor,
    });
    if (!draft.ok || !later.ok) throw new Error("saved expected");
    const ids = (now: Date) => publicEvents({ now }).then((l) => l.map((e) => e.id));
    expect(await ids(NOW)).not.toContain(draft.id);
    expect(await ids(NOW)).not.toContain(later.id);
    expect(await ids(new Date("2027-01-10T07:00:00Z"))).toContain(later.id);
    const items = await listPastorEvents(NOW);
    expect(items.find((i) => i.id === draft.id)?.publication.state).toBe("draft");
    expect(items.find((i) => i.id === later.id)?.publication.state).toBe("scheduled");
    const invalid = await addEvent(form({ ...weekly, publishAt: "2027-02-30T10:00" }), { intent: "publish", actor });
    expect(invalid).toMatchObject({ ok: false, errors: { publishAt: expect.stringContaining("Podaj poprawną") } });
  });

  it("refuses an edit begun from an older version, and raises SEQUENCE with every save", async () => {
    vi.spyOn(clock, "now").mockReturnValue(NOW);
    const r = await addEvent(form({ ...weekly, title: "Próba chóru" }), { intent: "publish", actor });
    if (!r.ok) throw new Error("saved expected");
    const first = (await getPastorEvent(r.id))!;
    const values = formValuesOf(first);
    const one = await updateEvent(
      r.id,
      { ...values, place: "sala główna" },
      { baseVersion: 1, intent: "publish", actor },
    );
    expect(one).toMatchObject({ ok: true });
    const second = (await getPastorEvent(r.id))!;
    expect(second).toMatchObject({ version: 2, sequence: first.sequence + 1, place: "sala główna" });
    const before = await currentContentVersion();
    const stale = await updateEvent(r.id, { ...values, title: "Próba" }, { baseVersion: 1, intent: "publish", actor });
    expect(stale).toMatchObject({ ok: false, status: 409, changed: ["tytuł", "miejsce"] });
    expect(await currentContentVersion()).toBe(before);
    // Nothing changed: saved as it was, no new version.
    expect(await updateEvent(r.id, formValuesOf(second), { baseVersion: 1, intent: "publish", actor })).toMatchObject({
      ok: true,
    });
    expect((await getPastorEvent(r.id))!.version).toBe(2);
    // A monthly rule: the first Sunday, from the typed day on.
    const monthly = await updateEvent(
      r.id,
      { ...formValuesOf(second), repeat: "monthly", monthWeek: "1", monthDay: "SU", ends: "count", count: "3" },
      { baseVersion: 2, intent: "publish", actor },
    );
    expect(monthly).toMatchObject({ ok: true });
    const third = (await getPastorEvent(r.id))!;
    expect(third).toMatchObject({ startDate: "2027-02-07", repeat: "monthly", monthWeek: 1, count: 3, sequence: 2 });
    expect(repeatSummary(third)).toBe("co miesiąc: pierwsza niedziela miesiąca; 3 razy");
  });

  it("moves an event to the bin (off the calendar) and back", async () => {
    vi.spyOn(clock, "now").mockReturnValue(NOW);
    const r = await addEvent(form({ ...weekly, title: "Do kosza" }), { intent: "publish", actor });
    if (!r.ok) throw new Error("saved expected");
    expect(await binEvent(r.id, { actor })).toMatchObject({ ok: true });
    expect((await publicEvents({ now: NOW })).map((e) => e.id)).not.toContain(r.id);
    expect(await getPastorEvent(r.id)).toBeNull();
    expect((await listBin({ now: NOW })).find((i) => i.kind === "event" && i.id === String(r.id))).toMatchObject({
      title: "Do kosza",
    });
    expect(await restoreEvent({ id: String(r.id), actor })).toEqual({ ok: true, title: "Do kosza" });
    expect((await publicEvents({ now: NOW })).map((e) => e.id)).toContain(r.id);
    await binEvent(r.id, { actor });
    expect(await purgeItem({ kind: "event", id: String(r.id), actor })).toBe(true);
    expect((await listBin({ now: NOW })).some((i) => i.kind === "event")).toBe(false);
  });
});

describe("one occurrence", () => {
  it("is cancelled (still listed, CANCELLED in the feed), restored and moved, the rest untouched", async () => {
    vi.spyOn(clock, "now").mockReturnValue(NOW);
    const r = await addEvent(form({ ...weekly, title: "Modlitwa" }), { intent: "publish", actor });
    if (!r.ok) throw new Error("saved expected");
    const uid = `wydarzenie-${r.id}@zbor.example.org`;
    const until = new Date("2027-01-27T00:00:00Z");
    const feedNow = async () => calendarFeed(await publicEvents({ now: NOW }), ORIGIN, "Kalendarz", NOW);
    const page = async () =>
      occurrencesOf(await publicEvents({ now: NOW }), NOW, until)
        .filter((o) => o.eventId === r.id)
        .map((o) => [o.date, o.startTime, o.cancelled]);

    const before = await currentContentVersion();
    expect(await changeOccurrence(r.id, "2027-01-12", { kind: "cancel" }, { actor })).toEqual({
      ok: true,
      title: "Modlitwa",
    });
    expect(await currentContentVersion()).toBeGreaterThan(before);
    expect(await page()).toEqual([
      ["2027-01-05", "18:30", false],
      ["2027-01-12", "18:30", true],
      ["2027-01-19", "18:30", false],
      ["2027-01-26", "18:30", false],
    ]);
    expect(feedOccurrences(await feedNow(), uid, NOW, until)).toEqual([
      { start: "2027-01-05T17:30:00.000Z", cancelled: false },
      { start: "2027-01-12T17:30:00.000Z", cancelled: true },
      { start: "2027-01-19T17:30:00.000Z", cancelled: false },
      { start: "2027-01-26T17:30:00.000Z", cancelled: false },
    ]);
    // Its own page says so to search engines: schema.org's EventCancelled, the start with its offset.
    const occurrence = async (day: string) => {
      const res = await occurrenceLoader({
        request: new Request(`${ORIGIN}/kalendarz/${r.id}/${day}`),
        params: { id: String(r.id), day },
        context: {},
      });
      const { e, path, address } = res.data;
      return eventJsonLd(ORIGIN, path!, e!, address);
    };
    expect(await occurrence("2027-01-12")).toMatchObject({
      eventStatus: "https://schema.org/EventCancelled",
      startDate: "2027-01-12T18:30:00+01:00",
    });
    expect((await occurrence("2027-01-19")).eventStatus).toBe("https://schema.org/EventScheduled");
    const stored = (await getPastorEvent(r.id))!;
    // A subscriber's calendar takes it (SEQUENCE), an edit open in another tab still saves (version).
    expect(stored).toMatchObject({ sequence: 1, version: 1 });
    expect(nextOccurrences(stored, NOW, 2).map((o) => [o.key, o.cancelled])).toEqual([
      ["2027-01-05", false],
      ["2027-01-12", true],
    ]);

    expect(await changeOccurrence(r.id, "2027-01-12", { kind: "restore" }, { actor })).toMatchObject({ ok: true });
    expect((await page())[1]).toEqual(["2027-01-12", "18:30", false]);

    const move = (key: string, input: { date: string; time: string; endTime: string }) =>
      changeOccurrence(r.id, key, { kind: "move", input }, { actor });
    expect(await move("2027-01-19", { date: "2027-02-30", time: "", endTime: "" })).toMatchObject({
      ok: false,
      errors: { date: expect.stringContaining("30 lutego") },
    });
    expect(await move("2027-03-23", { date: "2027-03-28", time: "02:30", endTime: "" })).toMatchObject({
      ok: false,
      errors: { time: expect.stringContaining("zmiana czasu") },
    });
    expect(await move("2027-01-19", { date: "2027-01-20", time: "19:00", endTime: "18:00" })).toMatchObject({
      ok: false,
      errors: { endTime: "Koniec musi być później niż początek." },
    });
    // Not a day of the rule (a Wednesday): nothing to change.
    expect(await move("2027-01-20", { date: "2027-01-21", time: "", endTime: "" })).toEqual({ ok: false, status: 404 });
    expect(await move("2027-01-19", { date: "2027-01-20", time: "19:00", endTime: "" })).toMatchObject({ ok: true });
    expect(await page()).toEqual([
      ["2027-01-05", "18:30", false],
      ["2027-01-12", "18:30", false],
      ["2027-01-20", "19:00", false],
      ["2027-01-26", "18:30", false],
    ]);
    expect(feedOccurrences(await feedNow(), uid, NOW, until).map((o) => o.start)).toContain("2027-01-20T18:00:00.000Z");
    expect((await getPastorEvent(r.id))!.sequence).toBe(3);
    const [entry] = await listActivity({ now: NOW });
    expect(entry).toMatchObject({
      action: "edited",
      subjectTitle: "Modlitwa – przeniesiono termin 2027-01-19 na 2027-01-20 19:00",
    });
  });

  it("is removed from the series (not listed, an EXDATE in the feed with no override) and put back", async () => {
    vi.spyOn(clock, "now").mockReturnValue(NOW);
    const r = await addEvent(form({ ...weekly, title: "Próba zespołu" }), { intent: "publish", actor });
    if (!r.ok) throw new Error("saved expected");
    const uid = `wydarzenie-${r.id}@zbor.example.org`;
    const until = new Date("2027-01-27T00:00:00Z");
    const feedNow = async () => calendarFeed(await publicEvents({ now: NOW }), ORIGIN, "Kalendarz", NOW);
    const page = async () =>
      occurrencesOf(await publicEvents({ now: NOW }), NOW, until)
        .filter((o) => o.eventId === r.id)
        .map((o) => o.date);
    const occurrenceStatus = async (day: string) =>
      (
        await occurrenceLoader({
          request: new Request(`${ORIGIN}/kalendarz/${r.id}/${day}`),
          params: { id: String(r.id), day },
          context: {},
        })
      ).init?.status ?? 200;

    const before = await currentContentVersion();
    expect(await changeOccurrence(r.id, "2027-01-12", { kind: "remove" }, { actor })).toEqual({
      ok: true,
      title: "Próba zespołu",
    });
    expect(await currentContentVersion()).toBeGreaterThan(before);
    expect(await page()).toEqual(["2027-01-05", "2027-01-19", "2027-01-26"]);
    expect(await occurrenceStatus("2027-01-12")).toBe(404);
    expect(await occurrenceStatus("2027-01-19")).toBe(200);
    const feed = await feedNow();
    const master = feed.split("BEGIN:VEVENT").find((v) => v.includes(`UID:${uid}`))!;
    expect(master).toContain("EXDATE;TZID=Europe/Warsaw:20270112T183000");
    expect(feed).not.toContain("RECURRENCE-ID;TZID=Europe/Warsaw:20270112");
    expect(feedOccurrences(feed, uid, NOW, until)).toEqual([
      { start: "2027-01-05T17:30:00.000Z", cancelled: false },
      { start: "2027-01-19T17:30:00.000Z", cancelled: false },
      { start: "2027-01-26T17:30:00.000Z", cancelled: false },
    ]);
    const stored = (await getPastorEvent(r.id))!;
    expect(stored).toMatchObject({ sequence: 1, version: 1 });
    // The pastor still sees it, marked, to put it back.
    expect(nextOccurrences(stored, NOW, 3).map((o) => [o.key, o.removed])).toEqual([
      ["2027-01-05", false],
      ["2027-01-12", true],
      ["2027-01-19", false],
    ]);
    expect((await listActivity({ now: NOW }))[0]).toMatchObject({
      action: "edited",
      subjectTitle: "Próba zespołu – usunięto z kalendarza termin 2027-01-12",
    });

    expect(await changeOccurrence(r.id, "2027-01-12", { kind: "restore" }, { actor })).toMatchObject({ ok: true });
    expect(await page()).toEqual(["2027-01-05", "2027-01-12", "2027-01-19", "2027-01-26"]);
    expect(await feedNow()).not.toContain("EXDATE");
    expect((await getPastorEvent(r.id))!.sequence).toBe(2);
  });
});
