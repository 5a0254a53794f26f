// The iCalendar feed read by an independent parser (ical.js): the
// occurrences it expands from RRULE, EXDATE, VTIMEZONE and the RECURRENCE-ID
// overrides are the page's occurrences, across both clock changes, with a
// cancelled one (STATUS:CANCELLED), a moved one and removed ones (EXDATE).
import ICAL from "ical.js";
import { beforeAll, describe, expect, it } from "vitest";
import { type CalendarEvent, occurrencesOf, publicEvents } from "~/features/events/events.server";
import { calendarFeed, occurrenceIcs } from "~/features/events/feed.server";
import { occurrenceOn, warsawInstant } from "~/features/events/recurrence";
import { db } from "~/services/db.server";
import { eventExceptions, events } from "~/services/schema";
import { resetDatabase } from "../helpers";

const ORIGIN = "https://zbor.example.org";
const NOW = new Date("2026-01-10T12:00:00Z");

let list: CalendarEvent[];
let feed: string;

beforeAll(async () => {
  await resetDatabase();
  const d = await db();
  const published = new Date("2026-01-01T00:00:00Z");
  const [{ id }] = await d
    .insert(events)
    .values({
      title: "Nabożeństwo niedzielne",
      place: "Kampus Wieliczka, skrzydło E",
      startDate: "2026-01-04",
      startTime: "10:00",
      endTime: "12:00",
      repeat: "weekly",
      weekdays: ["SU"],
      sequence: 3,
      publishAt: published,
    })
    .returning({ id: events.id });
  await d.insert(events).values({
    title: "Wieczerza Pańska",
    startDate: "2026-01-04",
    startTime: "11:30",
    repeat: "monthly",
    weekdays: ["SU"],
    monthWeek: 1,
    publishAt: published,
  });
  await d.insert(events).values({
    title: "Dzień otwarty",
    startDate: "2026-06-13",
    publishAt: published,
  });
  await d.insert(eventExceptions).values([
    { eventId: id, occurrenceDate: "2026-03-29", kind: "cancelled" },
    { eventId: id, occurrenceDate: "2026-10-25", kind: "moved", movedDate: "2026-10-24", movedTime: "18:00" },
    // Removed from the series: in summer time (the series starts in winter), and after the autumn change.
    { eventId: id, occurrenceDate: "2026-04-05", kind: "removed" },
    { eventId: id, occurrenceDate: "2026-11-01", kind: "removed" },
  ]);
  list = await publicEvents({ now: NOW });
  feed = calendarFeed(list, ORIGIN, "Kalendarz zboru", NOW);
});

interface Parsed {
  uid: string;
  start: string;
  cancelled: boolean;
}

/** Every occurrence ical.js expands from the feed, between two instants. */
function expandWithIcalJs(text: string, from: Date, to: Date): Parsed[] {
  const root = new ICAL.Component(ICAL.parse(text));
  for (const tz of root.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(tz);
  const vevents = root.getAllSubcomponents("vevent");
  const masters = vevents.filter((v) => !v.hasProperty("recurrence-id"));
  const out: Parsed[] = [];
  for (const master of masters) {
    const uid = master.getFirstPropertyValue("uid");
    // Its own overrides only: without `exceptions`, ical.js relates every RECURRENCE-ID in the file, whatever its UID.
    const event = new ICAL.Event(master, {
      exceptions: vevents.filter((v) => v.hasProperty("recurrence-id") && v.getFirstPropertyValue("uid") === uid),
    });
    if (!event.isRecurring()) {
      // A day (all-day event) has no time zone: compared as the day itself.
      const day = event.startDate.isDate ? event.startDate.toString() : null;
      const start = day ? warsawInstant(day) : event.startDate.toJSDate();
      const shown = day ? `dzień ${day}` : start.toISOString();
      if (start >= from && start < to) out.push({ uid: event.uid, start: shown, cancelled: false });
      continue;
    }
    const it = event.iterator();
    for (let next = it.next(); next; next = it.next()) {
      const details = event.getOccurrenceDetails(next);
      const start = details.startDate.toJSDate();
      if (next.toJSDate() >= to && start >= to) break;
      if (start < from || start >= to) continue;
      const status = details.item.component.getFirstPropertyValue("status");
      out.push({ uid: event.uid, start: start.toISOString(), cancelled: status === "CANCELLED" });
    }
  }
  return out.sort((a, b) => a.start.localeCompare(b.start) || a.uid.localeCompare(b.uid));
}

describe("the calendar feed", () => {
  it("has a VTIMEZONE for Europe/Warsaw, stable UIDs, SEQUENCE and the RRULEs", () => {
    expect(feed).toContain("BEGIN:VTIMEZONE\r\nTZID:Europe/Warsaw");
    expect(feed).toContain("DTSTART;TZID=Europe/Warsaw:20260104T100000");
    expect(feed).toContain("RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=SU;WKST=MO;UNTIL=");
    expect(feed).toContain("RRULE:FREQ=MONTHLY;INTERVAL=1;BYDAY=+1SU;UNTIL=");
    expect(feed).toContain(`UID:wydarzenie-${list[0].id}@zbor.example.org`);
    expect(feed).toContain("SEQUENCE:3");
    // The same data gives the same text (the ETag depends on it).
    expect(calendarFeed(list, ORIGIN, "Kalendarz zboru", NOW)).toBe(feed);
  });

  it("writes the same Warsaw wall times whatever time zone the server runs in", () => {
    const before = process.env.TZ;
    try {
      for (const zone of ["Europe/Warsaw", "America/New_York", "Asia/Tokyo"]) {
        process.env.TZ = zone; // Node reads TZ again when it changes
        expect(calendarFeed(list, ORIGIN, "Kalendarz zboru", NOW), `server in ${zone}`).toBe(feed);
      }
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });

  it("expands, read by ical.js, to the page's occurrences across both clock changes", () => {
    for (const [from, to] of [
      ["2026-03-01T00:00:00Z", "2026-04-30T00:00:00Z"],
      ["2026-10-01T00:00:00Z", "2026-11-30T00:00:00Z"],
      ["2026-06-01T00:00:00Z", "2026-06-30T00:00:00Z"],
    ]) {
      const a = new Date(from);
      const b = new Date(to);
      const page = occurrencesOf(list, a, b).map((o) => ({
        uid: `wydarzenie-${o.eventId}@zbor.example.org`,
        start: o.allDay ? `dzień ${o.date}` : o.start.toISOString(),
        cancelled: o.cancelled,
      }));
      page.sort((x, y) => x.start.localeCompare(y.start) || x.uid.localeCompare(y.uid));
      expect(expandWithIcalJs(feed, a, b)).toEqual(page);
      expect(page.length).toBeGreaterThan(3);
    }
  });

  it("marks the cancelled Sunday CANCELLED and puts the moved one on Saturday 18:00", () => {
    const got = expandWithIcalJs(feed, new Date("2026-03-28T00:00:00Z"), new Date("2026-03-30T00:00:00Z"));
    expect(got).toContainEqual({
      uid: `wydarzenie-${list[0].id}@zbor.example.org`,
      start: "2026-03-29T08:00:00.000Z",
      cancelled: true,
    });
    const moved = expandWithIcalJs(feed, new Date("2026-10-24T00:00:00Z"), new Date("2026-10-26T00:00:00Z"));
    expect(moved.filter((o) => o.uid === `wydarzenie-${list[0].id}@zbor.example.org`)).toEqual([
      { uid: `wydarzenie-${list[0].id}@zbor.example.org`, start: "2026-10-24T16:00:00.000Z", cancelled: false },
    ]);
  });

  it("leaves removed Sundays out as EXDATEs in the series' time zone, with no VEVENT of their own", () => {
    const uid = `wydarzenie-${list[0].id}@zbor.example.org`;
    const vevents = feed.split("BEGIN:VEVENT").filter((v) => v.includes(`UID:${uid}`));
    const master = vevents.find((v) => !v.includes("RECURRENCE-ID"))!;
    expect(master).toContain("EXDATE;TZID=Europe/Warsaw:20260405T100000\r\n");
    expect(master).toContain("EXDATE;TZID=Europe/Warsaw:20261101T100000\r\n");
    // Only the cancelled and the moved Sunday have overrides.
    expect(vevents.filter((v) => v.includes("RECURRENCE-ID")).map((v) => v.match(/RECURRENCE-ID[^\r]*/)![0])).toEqual([
      "RECURRENCE-ID;TZID=Europe/Warsaw:20260329T100000",
      "RECURRENCE-ID;TZID=Europe/Warsaw:20261025T100000",
    ]);
    const starts = (from: string, to: string) =>
      expandWithIcalJs(feed, new Date(from), new Date(to))
        .filter((o) => o.uid === uid)
        .map((o) => o.start);
    expect(starts("2026-03-28T00:00:00Z", "2026-04-13T00:00:00Z")).toEqual([
      "2026-03-29T08:00:00.000Z",
      "2026-04-12T08:00:00.000Z",
    ]);
    expect(starts("2026-10-24T00:00:00Z", "2026-11-09T00:00:00Z")).toEqual([
      "2026-10-24T16:00:00.000Z",
      "2026-11-08T09:00:00.000Z",
    ]);
    // Nor on the page, nor as a page of its own.
    const e = list[0];
    const april = occurrencesOf(list, new Date("2026-04-04T00:00:00Z"), new Date("2026-04-06T00:00:00Z"));
    expect(april.map((o) => o.event.title)).toEqual(["Wieczerza Pańska"]);
    expect(occurrenceOn(e, e.exceptions, "2026-04-05")).toBeNull();
  });

  it("removes a day of an all-day series as a day (EXDATE;VALUE=DATE)", () => {
    const cleaning: CalendarEvent = {
      id: 900,
      title: "Sprzątanie",
      description: "",
      place: "",
      startDate: "2026-03-07",
      startTime: null,
      endTime: null,
      endDate: null,
      repeat: "weekly",
      interval: 1,
      weekdays: ["SA"],
      monthWeek: null,
      untilDate: null,
      count: 4,
      imageKey: null,
      imageWidth: null,
      imageHeight: null,
      sequence: 1,
      updatedAt: new Date("2026-01-01T00:00:00Z"),
      exceptions: [
        { occurrenceDate: "2026-03-21", kind: "removed", movedDate: null, movedTime: null, movedEndTime: null },
      ],
    };
    const text = calendarFeed([cleaning], ORIGIN, "Kalendarz zboru", NOW);
    expect(text).toContain("EXDATE;VALUE=DATE:20260321\r\n");
    expect(text).not.toContain("RECURRENCE-ID");
    const root = new ICAL.Component(ICAL.parse(text));
    const event = new ICAL.Event(root.getFirstSubcomponent("vevent")!);
    const days: string[] = [];
    const it = event.iterator();
    for (let next = it.next(); next; next = it.next()) days.push(next.toString());
    expect(days).toEqual(["2026-03-07", "2026-03-14", "2026-03-28"]);
  });

  it("writes a rule with no end as ending a year ahead", () => {
    const far = expandWithIcalJs(feed, new Date("2027-02-01T00:00:00Z"), new Date("2027-12-31T00:00:00Z"));
    expect(far.filter((o) => o.uid === `wydarzenie-${list[0].id}@zbor.example.org`)).toEqual([]);
  });

  it("gives one occurrence as a calendar file of its own", () => {
    const e = list[0];
    const o = occurrenceOn(e, e.exceptions, "2026-10-25")!;
    const text = occurrenceIcs(e, o, ORIGIN, "Kalendarz zboru");
    const got = expandWithIcalJs(text, new Date("2026-01-01T00:00:00Z"), new Date("2027-01-01T00:00:00Z"));
    expect(got).toEqual([
      { uid: `wydarzenie-${e.id}-2026-10-25@zbor.example.org`, start: "2026-10-24T16:00:00.000Z", cancelled: false },
    ]);
    expect(text).not.toContain("RRULE:FREQ=WEEKLY");
    expect(text).toContain("DTEND;TZID=Europe/Warsaw:20261024T200000");
  });
});
