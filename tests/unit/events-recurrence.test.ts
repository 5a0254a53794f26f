// The calendar's occurrences, on the real database: events written as rows,
// read back as visitors' pages read them, expanded in Warsaw time. The
// clocks change on the last Sundays of March and October: a 10:00 service
// stays at 10:00 Warsaw time, so its UTC hour moves.
import { beforeAll, describe, expect, it } from "vitest";
import { occurrencesOf, publicEvents } from "~/features/events/events.server";
import { expandEvent, icalRule, occurrenceOn, warsawInstant } from "~/features/events/recurrence";
import { db } from "~/services/db.server";
import { eventExceptions, events } from "~/services/schema";
import { resetDatabase } from "../helpers";

const utc = (iso: string) => new Date(iso);
const iso = (d: Date) => d.toISOString().replace(".000", "");

let sunday: number;
let firstSunday: number;
let homeGroups: number;
let youth: number;

beforeAll(async () => {
  await resetDatabase();
  const d = await db();
  const published = new Date("2026-01-01T00:00:00Z");
  [{ id: sunday }] = await d
    .insert(events)
    .values({
      title: "Nabożeństwo niedzielne",
      place: "Kampus Wieliczka, skrzydło E",
      startDate: "2026-01-04",
      startTime: "10:00",
      endTime: "12:00",
      repeat: "weekly",
      weekdays: ["SU"],
      publishAt: published,
    })
    .returning({ id: events.id });
  [{ id: firstSunday }] = await d
    .insert(events)
    .values({
      title: "Wieczerza Pańska",
      startDate: "2026-01-04",
      startTime: "10:00",
      repeat: "monthly",
      weekdays: ["SU"],
      monthWeek: 1,
      publishAt: published,
    })
    .returning({ id: events.id });
  [{ id: homeGroups }] = await d
    .insert(events)
    .values({
      title: "Grupy domowe",
      startDate: "2026-01-06",
      startTime: "19:00",
      repeat: "weekly",
      interval: 2,
      weekdays: ["TU", "FR"],
      count: 6,
      publishAt: published,
    })
    .returning({ id: events.id });
  [{ id: youth }] = await d
    .insert(events)
    .values({
      title: "Spotkania młodzieżowe",
      startDate: "2026-03-07",
      startTime: "17:00",
      endTime: "20:00",
      repeat: "weekly",
      weekdays: ["SA"],
      untilDate: "2026-03-28",
      publishAt: published,
    })
    .returning({ id: events.id });
  // A draft and a binned event never reach visitors.
  await d.insert(events).values([
    { title: "Szkic", startDate: "2026-03-22", startTime: "12:00", publishAt: null },
    { title: "W koszu", startDate: "2026-03-22", startTime: "12:00", publishAt: published, deletedAt: published },
  ]);
  await d.insert(eventExceptions).values([
    { eventId: sunday, occurrenceDate: "2026-03-29", kind: "cancelled" },
    { eventId: sunday, occurrenceDate: "2026-10-25", kind: "moved", movedDate: "2026-10-24", movedTime: "18:00" },
  ]);
});

describe("expanding events in Warsaw time", () => {
  it("keeps a weekly service at 10:00 across both clock changes (its UTC hour moves)", async () => {
    const [e] = await publicEvents({ id: sunday });
    const got = expandEvent({ ...e }, [], utc("2026-03-21T00:00:00Z"), utc("2026-04-06T00:00:00Z"));
    expect(got.map((o) => [o.key, iso(o.start), iso(o.end!)])).toEqual([
      ["2026-03-22", "2026-03-22T09:00:00Z", "2026-03-22T11:00:00Z"],
      ["2026-03-29", "2026-03-29T08:00:00Z", "2026-03-29T10:00:00Z"],
      ["2026-04-05", "2026-04-05T08:00:00Z", "2026-04-05T10:00:00Z"],
    ]);
    const autumn = expandEvent(e, [], utc("2026-10-17T00:00:00Z"), utc("2026-11-02T00:00:00Z"));
    expect(autumn.map((o) => [o.key, iso(o.start)])).toEqual([
      ["2026-10-18", "2026-10-18T08:00:00Z"],
      ["2026-10-25", "2026-10-25T09:00:00Z"],
      ["2026-11-01", "2026-11-01T09:00:00Z"],
    ]);
  });

  it("marks a cancelled occurrence and puts a moved one at its new time, the rest untouched", async () => {
    const [e] = await publicEvents({ id: sunday });
    const spring = expandEvent(e, e.exceptions, utc("2026-03-21T00:00:00Z"), utc("2026-04-06T00:00:00Z"));
    expect(spring.map((o) => [o.key, o.cancelled])).toEqual([
      ["2026-03-22", false],
      ["2026-03-29", true],
      ["2026-04-05", false],
    ]);
    const autumn = expandEvent(e, e.exceptions, utc("2026-10-17T00:00:00Z"), utc("2026-11-02T00:00:00Z"));
    expect(autumn.map((o) => [o.key, o.date, iso(o.start), o.moved])).toEqual([
      ["2026-10-18", "2026-10-18", "2026-10-18T08:00:00Z", false],
      // Saturday 18:00 in summer time, the evening before the clocks go back.
      ["2026-10-25", "2026-10-24", "2026-10-24T16:00:00Z", true],
      ["2026-11-01", "2026-11-01", "2026-11-01T09:00:00Z", false],
    ]);
  });

  it("gives the first Sunday of every month for 'monthly on the 1st Sunday'", async () => {
    const [e] = await publicEvents({ id: firstSunday });
    const got = expandEvent(e, [], utc("2026-01-01T00:00:00Z"), utc("2026-07-01T00:00:00Z"));
    expect(got.map((o) => o.date)).toEqual([
      "2026-01-04",
      "2026-02-01",
      "2026-03-01",
      "2026-04-05",
      "2026-05-03",
      "2026-06-07",
    ]);
    expect(icalRule(e)).toBe("FREQ=MONTHLY;INTERVAL=1;BYDAY=+1SU");
  });

  it("repeats every other week on two days and stops after the count", async () => {
    const [e] = await publicEvents({ id: homeGroups });
    const got = expandEvent(e, [], utc("2026-01-01T00:00:00Z"), utc("2026-12-31T00:00:00Z"));
    expect(got.map((o) => o.date)).toEqual([
      "2026-01-06",
      "2026-01-09",
      "2026-01-20",
      "2026-01-23",
      "2026-02-03",
      "2026-02-06",
    ]);
  });

  it("ends on the until day, that day included", async () => {
    const [e] = await publicEvents({ id: youth });
    const got = expandEvent(e, [], utc("2026-01-01T00:00:00Z"), utc("2026-12-31T00:00:00Z"));
    expect(got.map((o) => [o.date, iso(o.start)])).toEqual([
      ["2026-03-07", "2026-03-07T16:00:00Z"],
      ["2026-03-14", "2026-03-14T16:00:00Z"],
      ["2026-03-21", "2026-03-21T16:00:00Z"],
      ["2026-03-28", "2026-03-28T16:00:00Z"],
    ]);
  });

  it("lists only published events that are not in the bin, in time order", async () => {
    const list = await publicEvents({ now: utc("2026-11-29T00:00:00Z") });
    expect(list.map((e) => e.title).sort()).toEqual(
      ["Grupy domowe", "Nabożeństwo niedzielne", "Spotkania młodzieżowe", "Wieczerza Pańska"].sort(),
    );
    const week = occurrencesOf(list, utc("2026-02-28T23:00:00Z"), utc("2026-03-07T23:00:00Z"));
    expect(week.map((o) => [o.date, o.startTime, o.event.title])).toEqual([
      ["2026-03-01", "10:00", "Nabożeństwo niedzielne"],
      ["2026-03-01", "10:00", "Wieczerza Pańska"],
      ["2026-03-07", "17:00", "Spotkania młodzieżowe"],
    ]);
  });

  it("finds one occurrence by its day, and none on a day the rule skips", async () => {
    const [e] = await publicEvents({ id: sunday });
    expect(occurrenceOn(e, e.exceptions, "2026-03-29")?.cancelled).toBe(true);
    expect(occurrenceOn(e, e.exceptions, "2026-03-30")).toBeNull();
  });

  it("leaves a removed occurrence out (the pastor's pages see it marked) and finds no page for it", async () => {
    const [e] = await publicEvents({ id: sunday });
    const xs = [
      ...e.exceptions,
      { occurrenceDate: "2026-04-05", kind: "removed" as const, movedDate: null, movedTime: null, movedEndTime: null },
    ];
    const from = utc("2026-03-21T00:00:00Z");
    const to = utc("2026-04-13T00:00:00Z");
    expect(expandEvent(e, xs, from, to).map((o) => o.key)).toEqual(["2026-03-22", "2026-03-29", "2026-04-12"]);
    expect(expandEvent(e, xs, from, to, { withRemoved: true }).map((o) => [o.key, o.removed])).toEqual([
      ["2026-03-22", false],
      ["2026-03-29", false],
      ["2026-04-05", true],
      ["2026-04-12", false],
    ]);
    expect(occurrenceOn(e, xs, "2026-04-05")).toBeNull();
    expect(occurrenceOn(e, xs, "2026-04-12")?.removed).toBe(false);
  });

  it("reads a time skipped by the spring clock change as the hour after", () => {
    expect(iso(warsawInstant("2026-03-29", "02:30"))).toBe("2026-03-29T01:30:00Z");
  });
});
