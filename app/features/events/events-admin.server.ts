// The pastor's events ('Wydarzenia'): add, edit with the two-tab version
// check, drafts and scheduled publishing as for articles, the bin. Each
// change in one transaction with its history entry, then the content
// version, so /kalendarz and the feed follow at once. Every change a
// subscribed calendar must take raises the event's SEQUENCE.
import { TZDate } from "@date-fns/tz";
import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { type Actor, recordActivity } from "~/features/activity/activity.server";
import { clock } from "~/services/clock.server";
import { contentChanged } from "~/services/content-version.server";
import { type Db, withDb } from "~/services/db.server";
import { eventExceptions, events } from "~/services/schema";
import {
  instantToWallTime,
  publicationChange,
  publicationOf,
  publishAtFor,
  readPublishChoice,
  type Publication,
} from "~/features/publishing/publication.server";
import {
  CALENDAR_TIME_ZONE,
  DAY_CODES,
  type DayCode,
  type EventException,
  type EventRule,
  addDays,
  daysBetween,
  expandEvent,
  isRuleDay,
  ruleDays,
  warsawDate,
  warsawInstant,
} from "~/features/events/recurrence";
import {
  EVENT_PHOTO_MESSAGES,
  EVENT_CHANGE_NAMES,
  EVENT_COUNT_MAX,
  EVENT_DESCRIPTION_MAX,
  EVENT_INTERVAL_MAX,
  EVENT_PLACE_MAX,
  EVENT_TITLE_MAX,
  type EventErrors,
  type EventFormValues,
} from "~/features/events/event-fields";
import { eventColumns } from "~/features/events/events.server";
import { moveToBin } from "~/features/bin/bin.server";
import {
  type EventPhotoChange,
  type EventPhotoUpload,
  NO_PHOTO_CHANGE,
  discardEventPhoto,
  photoColumns,
  removeUnusedPhoto,
  storeEventPhoto,
  storedPhotoOf,
} from "~/features/events/event-photo.server";
import type { StoredImage } from "~/services/images.server";
import { type Storage, storage } from "~/services/storage.server";
import { cleanLine, cleanParagraphs, isCalendarDate } from "~/lib/text";

/** What a row of `events` holds of the form (no photo, no publication): the rule and its description. */
export type EventValues = Omit<EventRule, "id"> & { description: string };

/** An event as the pastor's pages show it. */
export interface PastorEvent extends EventValues {
  id: number;
  imageKey: string | null;
  imageWidth: number | null;
  imageHeight: number | null;
  version: number;
  sequence: number;
  publishAt: Date | null;
  publication: Publication;
  exceptions: EventException[];
}

export type EventResult =
  | { ok: true; id: number; title: string }
  /** Refused (400), a photo too large (413), or the photo could not be stored (503). */
  | { ok: false; status: 400 | 413 | 503; errors: EventErrors }
  | { ok: false; status: 404 }
  /** Another tab saved first: what differs (Polish names) and the stored event. */
  | { ok: false; status: 409; changed: string[]; current: PastorEvent };

// Sensible years for a congregation's calendar; also bounds what a rule with no end expands.
const FIRST_YEAR = 2000;
const LAST_YEAR = 2100;
// A recurring event's first occurrence is looked for this far after the day typed.
const FIRST_OCCURRENCE_REACH_DAYS = 5 * 366;

const pad = (n: number) => String(n).padStart(2, "0");
const DOTTED_DATE = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;
const CLOCK_TIME = /^(\d{1,2})[:.](\d{2})$/;

/** A day as a date input sends it (`2027-02-28`) or as typed without one (`28.02.2027`); null when no such day. */
export function readDate(text: string): string | null {
  const t = text.trim();
  const dotted = DOTTED_DATE.exec(t);
  const iso = dotted ? `${dotted[3]}-${pad(Number(dotted[2]))}-${pad(Number(dotted[1]))}` : t;
  return isCalendarDate(iso) ? iso : null;
}

/** A wall-clock time, `HH:MM` (also `9:30`, `9.30`); null when not one. */
export function readTime(text: string): string | null {
  const m = CLOCK_TIME.exec(text.trim());
  if (!m) return null;
  const [h, mi] = [Number(m[1]), Number(m[2])];
  return h <= 23 && mi <= 59 ? `${pad(h)}:${pad(mi)}` : null;
}

/** True when the clocks skip this Warsaw time that day (02:00–02:59 on the last Sunday of March). */
export function isSkippedTime(date: string, time: string): boolean {
  const z = new TZDate(warsawInstant(date, time).getTime(), CALENDAR_TIME_ZONE);
  return `${pad(z.getHours())}:${pad(z.getMinutes())}` !== time || warsawDate(z) !== date;
}

const skippedMessage = (date: string, time: string) =>
  `${date} o ${time} nie istnieje: tej nocy zegary przestawia się z 2:00 na 3:00 (zmiana czasu na letni). Podaj inną godzinę.`;

const numberIn = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/**
 * The typed values cleaned and checked; errors in Polish by field. A
 * recurring event starts on its first occurrence: the day typed, or the
 * first of the chosen days after it.
 */
export function checkEvent(
  input: EventFormValues,
): { ok: true; values: EventValues } | { ok: false; status: 400; errors: EventErrors } {
  const errors: EventErrors = {};
  const title = cleanLine(input.title);
  const place = cleanLine(input.place);
  const description = cleanParagraphs(input.description);
  if (!title) errors.title = "Podaj tytuł wydarzenia.";
  else if ([...title].length > EVENT_TITLE_MAX) errors.title = `Tytuł może mieć najwyżej ${EVENT_TITLE_MAX} znaków.`;
  if ([...place].length > EVENT_PLACE_MAX) errors.place = `Miejsce może mieć najwyżej ${EVENT_PLACE_MAX} znaków.`;
  if ([...description].length > EVENT_DESCRIPTION_MAX) {
    errors.description = `Opis może mieć najwyżej ${EVENT_DESCRIPTION_MAX} znaków.`;
  }

  // The start.
  let startDate = readDate(input.startDate);
  if (!input.startDate.trim()) errors.startDate = "Podaj dzień początku.";
  else if (!startDate) errors.startDate = "Nie ma takiego dnia – sprawdź datę (np. 30 lutego nie istnieje).";
  else if (Number(startDate.slice(0, 4)) < FIRST_YEAR || Number(startDate.slice(0, 4)) > LAST_YEAR) {
    errors.startDate = `Podaj dzień z lat ${FIRST_YEAR}–${LAST_YEAR}.`;
    startDate = null;
  }
  const allDay = input.allDay;
  const startTime = allDay ? null : readTime(input.startTime);
  if (!allDay) {
    if (!input.startTime.trim()) errors.startTime = "Podaj godzinę początku albo zaznacz „Cały dzień”.";
    else if (!startTime) errors.startTime = "Podaj godzinę w postaci gg:mm, np. 10:00.";
  }

  // The end: a timed event ends later the same day or the next; an all-day one on its last day.
  let endTime: string | null = null;
  let endDate: string | null = null;
  const typedEndDate = input.endDate.trim();
  const typedEndTime = input.endTime.trim();
  const readEndDate = typedEndDate ? readDate(typedEndDate) : null;
  if (typedEndDate && !readEndDate) errors.end = "Nie ma takiego dnia końca – sprawdź datę.";
  else if (allDay) {
    if (readEndDate && startDate && readEndDate < startDate) errors.end = "Koniec nie może być przed początkiem.";
    else if (readEndDate && startDate && readEndDate > startDate) endDate = readEndDate;
  } else if (typedEndTime || typedEndDate) {
    const time = readTime(typedEndTime);
    if (!typedEndTime) errors.end = "Podaj też godzinę końca.";
    else if (!time) errors.end = "Podaj godzinę końca w postaci gg:mm, np. 12:00.";
    else if (startDate && startTime) {
      const day = readEndDate ?? startDate;
      if (isSkippedTime(day, time)) errors.end = skippedMessage(day, time);
      else {
        const minutes = warsawInstant(day, time).getTime() - warsawInstant(startDate, startTime).getTime();
        if (minutes <= 0) errors.end = "Koniec musi być później niż początek.";
        else if (daysBetween(startDate, day) > 1 || (day !== startDate && time > startTime)) {
          errors.end = "Wydarzenie z godziną może trwać najwyżej dobę – dłuższe zapisz jako całodniowe.";
        } else endTime = time;
      }
    }
  }
  if (startDate && startTime && isSkippedTime(startDate, startTime)) {
    errors.startTime = skippedMessage(startDate, startTime);
  }

  // The recurrence.
  const repeat = input.repeat === "weekly" || input.repeat === "monthly" ? input.repeat : "none";
  let interval = 1;
  let weekdays: string[] = [];
  let monthWeek: number | null = null;
  let untilDate: string | null = null;
  let count: number | null = null;
  if (repeat !== "none") {
    const n = numberIn(1, EVENT_INTERVAL_MAX).safeParse(input.interval.trim() || "1");
    if (n.success) interval = n.data;
    else errors.interval = `Podaj liczbę od 1 do ${EVENT_INTERVAL_MAX}.`;
    if (repeat === "weekly") {
      weekdays = DAY_CODES.filter((d) => input.days.includes(d));
      // No day ticked: the day of the start.
      if (!weekdays.length && startDate)
        weekdays = [DAY_CODES[(new Date(`${startDate}T00:00:00Z`).getUTCDay() + 6) % 7]];
    } else {
      const week = z.enum(["1", "2", "3", "4", "-1"]).safeParse(input.monthWeek);
      const day = z.enum(DAY_CODES as [DayCode, ...DayCode[]]).safeParse(input.monthDay);
      if (week.success && day.success) {
        monthWeek = Number(week.data);
        weekdays = [day.data];
      } else errors.monthWeek = "Wybierz, który dzień miesiąca (np. 1. w miesiącu, niedziela).";
    }
    if (input.ends === "until") {
      untilDate = readDate(input.untilDate);
      if (!input.untilDate.trim()) errors.untilDate = "Podaj dzień, do którego wydarzenie się powtarza.";
      else if (!untilDate) errors.untilDate = "Nie ma takiego dnia – sprawdź datę.";
      else if (startDate && untilDate < startDate) errors.untilDate = "Ten dzień jest przed początkiem wydarzenia.";
      else if (Number(untilDate.slice(0, 4)) > LAST_YEAR) errors.untilDate = `Podaj dzień do roku ${LAST_YEAR}.`;
    } else if (input.ends === "count") {
      const c = numberIn(1, EVENT_COUNT_MAX).safeParse(input.count.trim());
      if (c.success) count = c.data;
      else errors.count = `Podaj liczbę powtórzeń od 1 do ${EVENT_COUNT_MAX}.`;
    }
  }
  if (Object.keys(errors).length || !startDate) return { ok: false, status: 400, errors };

  const values: EventValues = {
    title,
    description,
    place,
    startDate,
    startTime,
    endTime,
    endDate,
    repeat,
    interval,
    weekdays,
    monthWeek,
    untilDate,
    count,
  };
  if (repeat !== "none") {
    // The rule's first day, so DTSTART is its first occurrence (as RFC 5545 wants).
    const [first] = ruleDays({ id: 0, ...values }, startDate, addDays(startDate, FIRST_OCCURRENCE_REACH_DAYS));
    if (!first)
      return { ok: false, status: 400, errors: { repeat: "Przy tych ustawieniach wydarzenie nie wypada ani razu." } };
    if (first !== startDate) {
      if (startTime && isSkippedTime(first, startTime)) {
        return { ok: false, status: 400, errors: { startTime: skippedMessage(first, startTime) } };
      }
      values.endDate = endDate ? addDays(first, daysBetween(startDate, endDate)) : null;
      values.startDate = first;
    }
  }
  return { ok: true, values };
}

const columns = { ...eventColumns, publishAt: events.publishAt, version: events.version };

const notBinned = isNull(events.deletedAt);
const validId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= 2 ** 31 - 1;

type Row = Omit<PastorEvent, "publication" | "exceptions">;

const withPublication = (row: Row, exceptions: EventException[], now: Date): PastorEvent => ({
  ...row,
  publication: publicationOf(row.publishAt, now),
  exceptions,
});

/** One event outside the bin (drafts too) with its exceptions, or null. */
export async function getPastorEvent(id: number, now: Date = clock.now()): Promise<PastorEvent | null> {
  if (!validId(id)) return null;
  return withDb(async (db) => {
    const [row] = await db
      .select(columns)
      .from(events)
      .where(and(eq(events.id, id), notBinned));
    if (!row) return null;
    const xs = await db
      .select({
        occurrenceDate: eventExceptions.occurrenceDate,
        kind: eventExceptions.kind,
        movedDate: eventExceptions.movedDate,
        movedTime: eventExceptions.movedTime,
        movedEndTime: eventExceptions.movedEndTime,
      })
      .from(eventExceptions)
      .where(eq(eventExceptions.eventId, id))
      .orderBy(eventExceptions.occurrenceDate);
    return withPublication(row, xs, now);
  });
}

export interface PastorEventItem {
  id: number;
  title: string;
  place: string;
  rule: Pick<EventValues, "repeat" | "interval" | "weekdays" | "monthWeek" | "untilDate" | "count">;
  publication: Publication;
  /** The next occurrence's day and time (Warsaw), or the last one's for an event that is over. */
  when: { date: string; time: string | null } | null;
  upcoming: boolean;
}

// How far ahead the list looks for an event's next occurrence.
const LIST_REACH_DAYS = 2 * 366;

/**
 * Every event outside the bin, drafts and scheduled ones too: those still
 * ahead first, by their next occurrence; then those that are over, the
 * latest first.
 */
export async function listPastorEvents(now: Date = clock.now()): Promise<PastorEventItem[]> {
  const rows = await withDb((db) => db.select(columns).from(events).where(notBinned).orderBy(events.id));
  const today = warsawInstant(warsawDate(now));
  const ahead = new Date(today.getTime() + LIST_REACH_DAYS * 86_400_000);
  const items = rows.map((row) => {
    const rule: EventRule = row;
    const [next] = expandEvent(rule, [], today, ahead);
    const last = next ? null : (ruleDays(rule, row.startDate, warsawDate(today)).at(-1) ?? row.startDate);
    return {
      id: row.id,
      title: row.title,
      place: row.place,
      rule: {
        repeat: row.repeat,
        interval: row.interval,
        weekdays: row.weekdays,
        monthWeek: row.monthWeek,
        untilDate: row.untilDate,
        count: row.count,
      },
      publication: publicationOf(row.publishAt, now),
      when: next ? { date: next.date, time: next.startTime } : { date: last!, time: row.startTime },
      upcoming: Boolean(next),
      order: next ? next.start.getTime() : 0,
    };
  });
  items.sort((a, b) =>
    a.upcoming !== b.upcoming
      ? Number(b.upcoming) - Number(a.upcoming)
      : a.upcoming
        ? a.order - b.order
        : b.when!.date.localeCompare(a.when!.date),
  );
  return items.map(({ order: _order, ...item }) => item);
}

/** The form's values of a stored event (what the edit page shows). */
export function formValuesOf(e: PastorEvent): EventFormValues {
  const [firstDay] = e.weekdays;
  return {
    title: e.title,
    startDate: e.startDate,
    startTime: e.startTime ?? "",
    endDate: e.endDate ?? (e.endTime && e.startTime && e.endTime <= e.startTime ? addDays(e.startDate, 1) : ""),
    endTime: e.endTime ?? "",
    allDay: e.startTime === null,
    place: e.place,
    description: e.description,
    repeat: e.repeat,
    interval: String(e.interval),
    days:
      e.repeat === "weekly"
        ? (e.weekdays.filter((d) => (DAY_CODES as readonly string[]).includes(d)) as DayCode[])
        : [],
    monthWeek: e.monthWeek === null ? "1" : String(e.monthWeek),
    monthDay: e.repeat === "monthly" && firstDay ? firstDay : "SU",
    ends: e.untilDate ? "until" : e.count ? "count" : "never",
    untilDate: e.untilDate ?? "",
    count: e.count ? String(e.count) : "",
    publishAt: e.publishAt ? instantToWallTime(e.publishAt) : "",
    removeImage: false,
  };
}

async function afterCommit<T extends { ok: boolean }>(db: Db, result: T): Promise<T> {
  if (result.ok) await contentChanged(db);
  return result;
}

function publishAtOf(input: EventFormValues, intent: unknown, current: Date | null) {
  const choice = readPublishChoice(intent, input.publishAt);
  if (!choice.ok) return { ok: false as const, message: choice.message };
  return { ok: true as const, at: publishAtFor(choice.choice, current) };
}

/** The photo stored, or the refusal the form shows beside its input. */
async function storedOrRefused(
  upload: EventPhotoUpload | null,
  store: Storage,
): Promise<{ ok: true; image: StoredImage | null } | Extract<EventResult, { status: 400 | 413 | 503 }>> {
  if (!upload) return { ok: true, image: null };
  const stored = await storeEventPhoto(upload, store);
  return stored.ok ? stored : { ok: false, status: stored.status, errors: { image: stored.message } };
}

/**
 * Adds an event: published now, at the typed moment, or a draft ('zapisz
 * jako szkic'). Its photo, if sent, is stored only once the fields pass,
 * and removed again if the row cannot be written.
 */
export async function addEvent(
  input: EventFormValues,
  {
    intent,
    actor,
    photo = null,
    store = storage(),
  }: { intent: unknown; actor: Actor; photo?: EventPhotoUpload | null; store?: Storage },
): Promise<EventResult> {
  const checked = checkEvent(input);
  const publish = publishAtOf(input, intent, null);
  if (!checked.ok || !publish.ok) {
    const errors = { ...(checked.ok ? {} : checked.errors), ...(publish.ok ? {} : { publishAt: publish.message }) };
    return { ok: false, status: 400, errors };
  }
  const { values } = checked;
  const stored = await storedOrRefused(photo, store);
  if (!stored.ok) return stored;
  const now = clock.now();
  try {
    return await insertEvent({ ...values, ...photoColumns(stored.image) }, publish.at, now, actor);
  } catch (error) {
    await discardEventPhoto(stored.image, store);
    throw error;
  }
}

async function insertEvent(
  values: EventValues & ReturnType<typeof photoColumns>,
  publishAt: Date | null,
  now: Date,
  actor: Actor,
): Promise<EventResult> {
  return withDb(async (db) =>
    afterCommit(
      db,
      await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(events)
          .values({ ...values, publishAt, createdAt: now, updatedAt: now })
          .returning({ id: events.id });
        const subject = { kind: "event", id: row.id, title: values.title } as const;
        await recordActivity(tx, { actor, action: "created", subject });
        if (publicationChange(null, publishAt, now) === "scheduled") {
          await recordActivity(tx, { actor, action: "scheduled", subject });
        }
        return { ok: true as const, id: row.id, title: values.title };
      }),
    ),
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Polish names of what differs between the stored event and an edit. */
function differences(current: Row, next: EventValues, publishAt: Date | null, photoChanged: boolean): string[] {
  const changed: string[] = [];
  if (current.title !== next.title) changed.push(EVENT_CHANGE_NAMES.title);
  if (current.startDate !== next.startDate || current.startTime !== next.startTime) {
    changed.push(EVENT_CHANGE_NAMES.start);
  }
  if (current.endDate !== next.endDate || current.endTime !== next.endTime) changed.push(EVENT_CHANGE_NAMES.end);
  if (current.place !== next.place) changed.push(EVENT_CHANGE_NAMES.place);
  if (current.description !== next.description) changed.push(EVENT_CHANGE_NAMES.description);
  const rule = (e: EventValues | Row) => [e.repeat, e.interval, e.weekdays, e.monthWeek, e.untilDate, e.count];
  if (!same(rule(current), rule(next))) changed.push(EVENT_CHANGE_NAMES.repeat);
  if ((current.publishAt?.getTime() ?? null) !== (publishAt?.getTime() ?? null)) {
    changed.push(EVENT_CHANGE_NAMES.publishAt);
  }
  if (photoChanged) changed.push(EVENT_CHANGE_NAMES.image);
  return changed;
}

/**
 * Saves an edit. Refused (409) when the event changed since `baseVersion`
 * (another tab saved first) and the edit would change it. A new photo
 * replaces the stored one, 'usuń zdjęcie' removes it; the photo it
 * replaced or removed goes after the commit, unless another row names it.
 */
export async function updateEvent(
  id: number,
  input: EventFormValues,
  {
    baseVersion,
    intent,
    actor,
    photo = NO_PHOTO_CHANGE,
    store = storage(),
  }: { baseVersion: unknown; intent: unknown; actor: Actor; photo?: EventPhotoChange; store?: Storage },
): Promise<EventResult> {
  const checked = checkEvent(input);
  const choice = readPublishChoice(intent, input.publishAt);
  const both = photo.upload && photo.remove;
  if (!checked.ok || !choice.ok || both) {
    const errors = {
      ...(checked.ok ? {} : checked.errors),
      ...(choice.ok ? {} : { publishAt: choice.message }),
      ...(both ? { image: EVENT_PHOTO_MESSAGES.both } : {}),
    };
    return { ok: false, status: 400, errors };
  }
  if (!validId(id)) return { ok: false, status: 404 };
  const { values } = checked;
  const stored = await storedOrRefused(photo.upload, store);
  if (!stored.ok) return stored;
  const newImage = stored.image;
  // The photo this edit replaced or removed, known once its row change is made.
  let replaced: StoredImage | null = null;
  let result: EventResult;
  try {
    result = await withDb(async (db) => {
      const saved: EventResult = await db.transaction(async (tx) => {
        const [current] = await tx
          .select(columns)
          .from(events)
          .where(and(eq(events.id, id), notBinned))
          .for("update");
        if (!current) return { ok: false as const, status: 404 as const };
        const now = clock.now();
        const publishAt = publishAtFor(choice.choice, current.publishAt, now);
        const photoChanged = Boolean(newImage) || (photo.remove && current.imageKey !== null);
        const changed = differences(current, values, publishAt, photoChanged);
        if (!changed.length) return { ok: true as const, id, title: current.title };
        if (Number(baseVersion) !== current.version) {
          return {
            ok: false as const,
            status: 409 as const,
            changed,
            current: withPublication(current, [], now),
          };
        }
        await tx
          .update(events)
          .set({
            ...values,
            ...(photoChanged ? photoColumns(newImage) : {}),
            publishAt,
            version: current.version + 1,
            sequence: current.sequence + 1,
            updatedAt: now,
          })
          .where(eq(events.id, id));
        const subject = { kind: "event", id, title: values.title } as const;
        await recordActivity(tx, { actor, action: "edited", subject });
        const change = publicationChange(current.publishAt, publishAt, now);
        if (change) await recordActivity(tx, { actor, action: change, subject });
        if (photoChanged) replaced = storedPhotoOf(current);
        return { ok: true as const, id, title: values.title };
      });
      return afterCommit(db, saved);
    });
  } catch (error) {
    await discardEventPhoto(newImage, store);
    throw error;
  }
  if (!result.ok) await discardEventPhoto(newImage, store);
  // Committed: only now may the replaced photo go.
  else await removeUnusedPhoto(replaced, store);
  return result;
}

/** 'usuń': to the bin, from where it can be restored for 30 days. */
export async function binEvent(id: number, { actor }: { actor: Actor }): Promise<EventResult> {
  if (!validId(id)) return { ok: false, status: 404 };
  const title = await moveToBin("event", id, { actor });
  return title === null ? { ok: false, status: 404 } : { ok: true, id, title };
}

// ---------------------------------------------------------------------------
// One occurrence of a recurring event: cancelled ('odwołane', still listed),
// moved to another day or time, removed from the series (not listed at all,
// an EXDATE in the feed), or put back as the rule gives it. These are
// not fields of the edit form, so they leave its version alone (an edit open
// in another tab still saves); a subscribed calendar takes them by SEQUENCE.

export interface PastorOccurrence {
  /** The rule's day: the occurrence's name. */
  key: string;
  date: string;
  time: string | null;
  endTime: string | null;
  cancelled: boolean;
  moved: boolean;
  removed: boolean;
}

// How far ahead the edit page lists occurrences, and how many.
const OCCURRENCES_REACH_DAYS = 2 * 366;
export const OCCURRENCES_LISTED = 12;

/** The next occurrences of an event from the start of today (Warsaw), exceptions applied, removed ones marked. */
export function nextOccurrences(e: PastorEvent, now: Date = clock.now(), n = OCCURRENCES_LISTED): PastorOccurrence[] {
  const today = warsawInstant(warsawDate(now));
  return expandEvent(e, e.exceptions, today, new Date(today.getTime() + OCCURRENCES_REACH_DAYS * 86_400_000), {
    withRemoved: true,
  })
    .slice(0, n)
    .map((o) => ({
      key: o.key,
      date: o.date,
      time: o.startTime,
      endTime: o.endTime,
      cancelled: o.cancelled,
      moved: o.moved,
      removed: o.removed,
    }));
}

/** One occurrence of an event by its rule day, or null when the rule gives none that day. */
export function occurrenceOf(e: PastorEvent, key: string): PastorOccurrence | null {
  if (e.repeat === "none" || !isCalendarDate(key) || !isRuleDay(e, key)) return null;
  const x = e.exceptions.find((v) => v.occurrenceDate === key);
  const [o] = expandEvent(e, e.exceptions, warsawInstant(addDays(key, -70)), warsawInstant(addDays(key, 70)), {
    withRemoved: true,
  }).filter((v) => v.key === key);
  if (!o) {
    return {
      key,
      date: key,
      time: e.startTime,
      endTime: e.endTime,
      cancelled: x?.kind === "cancelled",
      moved: false,
      removed: x?.kind === "removed",
    };
  }
  const { date, startTime: time, endTime, cancelled, moved, removed } = o;
  return { key, date, time, endTime, cancelled, moved, removed };
}

/** The farthest an occurrence moves, in days (recurrence.ts looks 62 days around a window). */
export const MOVE_MAX_DAYS = 60;

export type OccurrenceResult =
  | { ok: true; title: string }
  | { ok: false; status: 400; errors: { date?: string; time?: string; endTime?: string } }
  | { ok: false; status: 404 };

/** The typed new day and time of a moved occurrence. */
export interface MoveInput {
  date: string;
  time: string;
  endTime: string;
}

/** The move's values checked: a real day, a time that exists that day, an end after the start. */
function checkMove(
  e: PastorEvent,
  key: string,
  input: MoveInput,
):
  | { ok: true; date: string; time: string | null; endTime: string | null }
  | { ok: false; status: 400; errors: { date?: string; time?: string; endTime?: string } } {
  const errors: { date?: string; time?: string; endTime?: string } = {};
  const date = readDate(input.date);
  if (!input.date.trim()) errors.date = "Podaj dzień, na który przenieść ten termin.";
  else if (!date) errors.date = "Nie ma takiego dnia – sprawdź datę (np. 30 lutego nie istnieje).";
  // The calendar looks this far around a window for moved occurrences.
  else if (Math.abs(daysBetween(key, date)) > MOVE_MAX_DAYS) {
    errors.date = `Termin można przenieść najwyżej o ${MOVE_MAX_DAYS} dni.`;
  }
  if (e.startTime === null)
    return date && !errors.date ? { ok: true, date, time: null, endTime: null } : { ok: false, status: 400, errors };
  const time = input.time.trim() ? readTime(input.time) : e.startTime;
  if (!time) errors.time = "Podaj godzinę w postaci gg:mm, np. 10:00.";
  const endTime = input.endTime.trim() ? readTime(input.endTime) : null;
  if (input.endTime.trim() && !endTime) errors.endTime = "Podaj godzinę końca w postaci gg:mm, np. 12:00.";
  if (date && time && isSkippedTime(date, time)) errors.time = skippedMessage(date, time);
  if (date && time && endTime && endTime <= time) errors.endTime = "Koniec musi być później niż początek.";
  if (Object.keys(errors).length || !date) return { ok: false, status: 400, errors };
  return { ok: true, date, time, endTime };
}

type Change = { kind: "cancel" } | { kind: "remove" } | { kind: "restore" } | { kind: "move"; input: MoveInput };

const CHANGE_WORDS = {
  cancel: "odwołano termin",
  remove: "usunięto z kalendarza termin",
  restore: "przywrócono termin",
  move: "przeniesiono termin",
} as const;

/** Cancels, removes, restores or moves one occurrence, with its history entry; the feed's SEQUENCE rises. */
export async function changeOccurrence(
  id: number,
  key: string,
  change: Change,
  { actor }: { actor: Actor },
): Promise<OccurrenceResult> {
  const event = await getPastorEvent(id);
  if (!event || !occurrenceOf(event, key)) return { ok: false, status: 404 };
  let moved: { date: string; time: string | null; endTime: string | null } | null = null;
  if (change.kind === "move") {
    const checked = checkMove(event, key, change.input);
    if (!checked.ok) return checked;
    // Moved back to where the rule puts it: no longer an exception.
    moved = checked.date === key && checked.time === event.startTime && !checked.endTime ? null : checked;
  }
  return withDb(async (db) => {
    const result: OccurrenceResult = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(events)
        .set({ sequence: sql`${events.sequence} + 1`, updatedAt: clock.now() })
        .where(and(eq(events.id, id), notBinned))
        .returning({ title: events.title });
      if (!row) return { ok: false as const, status: 404 as const };
      const where = and(eq(eventExceptions.eventId, id), eq(eventExceptions.occurrenceDate, key));
      await tx.delete(eventExceptions).where(where);
      if (change.kind === "cancel") {
        await tx.insert(eventExceptions).values({ eventId: id, occurrenceDate: key, kind: "cancelled" });
      } else if (change.kind === "remove") {
        await tx.insert(eventExceptions).values({ eventId: id, occurrenceDate: key, kind: "removed" });
      } else if (moved) {
        await tx.insert(eventExceptions).values({
          eventId: id,
          occurrenceDate: key,
          kind: "moved",
          movedDate: moved.date,
          movedTime: moved.time,
          movedEndTime: moved.endTime,
        });
      }
      const what = change.kind === "move" && !moved ? CHANGE_WORDS.restore : CHANGE_WORDS[change.kind];
      const to = moved ? ` na ${moved.date}${moved.time ? ` ${moved.time}` : ""}` : "";
      await recordActivity(tx, {
        actor,
        action: "edited",
        subject: { kind: "event", id, title: `${row.title} – ${what} ${key}${to}` },
      });
      return { ok: true as const, title: row.title };
    });
    return afterCommit(db, result);
  });
}
