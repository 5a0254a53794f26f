// Whether an article or album is public yet: one rule for every public
// query, the pastor's lists and the page cache. An item is a draft while
// `publish_at` is empty, scheduled while it lies ahead and published once it
// has passed; nothing runs at that moment: each read compares with "now".
// "Now" is the app's clock, so every row is written with a moment from that
// same clock (never the column's database default): the database keeps time
// to the microsecond and may run on another machine, and a row stamped by it
// could read as scheduled for a moment after it was saved.
import { TZDate } from "@date-fns/tz";
import { type AnyColumn, type SQL, and, isNotNull, lte } from "drizzle-orm";
import { church } from "~/content/church";
import { clock } from "~/services/clock.server";
import { articles, galleries } from "~/services/schema";
import { PUBLISH_AT_MESSAGES, type Publication, type PublicationState } from "~/features/publishing/publication";

export type { Publication, PublicationState };

export function publicationState(publishAt: Date | null, now: Date = clock.now()): PublicationState {
  if (publishAt === null) return "draft";
  return publishAt.getTime() > now.getTime() ? "scheduled" : "published";
}

/**
 * What a save did to an item's publication, for the history of changes:
 * made it public now ("published"), set or moved its moment ("scheduled"),
 * or nothing worth an entry of its own (null).
 */
export function publicationChange(
  before: Date | null,
  after: Date | null,
  now: Date = clock.now(),
): "published" | "scheduled" | null {
  const was = publicationState(before, now);
  const is = publicationState(after, now);
  if (is === "published") return was === "published" ? null : "published";
  if (is === "scheduled") return was === "scheduled" && before?.getTime() === after?.getTime() ? null : "scheduled";
  return null;
}

export function publicationOf(publishAt: Date | null, now: Date = clock.now()): Publication {
  return { state: publicationState(publishAt, now), at: publishAt ? publishAt.toISOString() : null };
}

/** The condition "visible to visitors now" on a `publish_at` column. */
export function visibleNow(column: AnyColumn, now: Date = clock.now()): SQL {
  return and(isNotNull(column), lte(column, now))!;
}

export const articleIsPublic = (now?: Date) => visibleNow(articles.publishAt, now);
export const galleryIsPublic = (now?: Date) => visibleNow(galleries.publishAt, now);

// ---------------------------------------------------------------------------
// Warsaw wall time, as a `datetime-local` input shows and sends it.

const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/;

/**
 * The instant a Warsaw wall time names, or null when the text is not a real
 * date and time. A time skipped when clocks go forward is read as the hour
 * after; a time that happens twice when they go back, as the second one.
 */
export function wallTimeToInstant(text: string, timeZone: string = church.timeZone): Date | null {
  const m = WALL_TIME.exec(text.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second = "0"] = m
    .slice(1)
    .map((v) => (v === undefined ? undefined : Number(v)));
  if (year! < 1900 || year! > 9999 || month! < 1 || month! > 12 || hour! > 23 || minute! > 59 || Number(second) > 59) {
    return null;
  }
  // Day 31 of a 30-day month would roll over: refused rather than moved.
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  if (day! < 1 || day! > daysInMonth) return null;
  const zoned = new TZDate(year!, month! - 1, day!, hour!, minute!, Number(second), timeZone);
  return new Date(zoned.getTime());
}

/** An instant as a `datetime-local` value in Warsaw time (to the minute, or second when it has one). */
export function instantToWallTime(instant: Date, timeZone: string = church.timeZone): string {
  const z = new TZDate(instant.getTime(), timeZone);
  const two = (n: number) => String(n).padStart(2, "0");
  const base = `${z.getFullYear()}-${two(z.getMonth() + 1)}-${two(z.getDate())}T${two(z.getHours())}:${two(z.getMinutes())}`;
  return z.getSeconds() ? `${base}:${two(z.getSeconds())}` : base;
}

/** What the pastor asked for with the form's buttons and the date-time field. */
export type PublishChoice = { kind: "draft" } | { kind: "publish"; at: Date | null };

/**
 * The form's choice: 'zapisz jako szkic' makes a draft; the publish button
 * publishes at the typed moment, or (left empty) now. An unreadable moment
 * is refused with a Polish message.
 */
export function readPublishChoice(
  intent: unknown,
  typed: unknown,
): { ok: true; choice: PublishChoice } | { ok: false; message: string } {
  if (intent === "draft") return { ok: true, choice: { kind: "draft" } };
  const text = typeof typed === "string" ? typed.trim() : "";
  if (!text) return { ok: true, choice: { kind: "publish", at: null } };
  const at = wallTimeToInstant(text);
  return at ? { ok: true, choice: { kind: "publish", at } } : { ok: false, message: PUBLISH_AT_MESSAGES.invalid };
}

/**
 * The `publish_at` to store. An empty field keeps an item that is already
 * public as it was (its publication moment is not moved by an edit); a draft
 * or a scheduled item published without a moment goes out now.
 */
export function publishAtFor(choice: PublishChoice, current: Date | null, now: Date = clock.now()): Date | null {
  if (choice.kind === "draft") return null;
  // The form shows the stored moment to the second: sent back unchanged, it keeps the exact one.
  if (choice.at && current && Math.floor(choice.at.getTime() / 1000) === Math.floor(current.getTime() / 1000)) {
    return current;
  }
  if (choice.at) return choice.at;
  return current && current.getTime() <= now.getTime() ? current : now;
}

// The page cache's clock for scheduled items lives beside the content version.
export { nextDueMoment } from "~/services/content-version.server";
