/** Legacy dates may be free text; only the part before the first comma is shown. */
export function displayDate(date: string): string {
  return date.split(",")[0].trim();
}

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * One Intl.DateTimeFormat per locale and options, made once: making one
 * costs far more than formatting with it (the page cache asks for the year
 * on every request, and that alone took a third of a cached view's CPU).
 */
export function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

/** Today's date (YYYY-MM-DD) in the congregation's time zone. */
export function todayIn(timeZone: string, now = new Date()): string {
  // en-CA formats as YYYY-MM-DD.
  return dateFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

export function yearIn(timeZone: string, now = new Date()): number {
  return Number(dateFormat("en-CA", { timeZone, year: "numeric" }).format(now));
}

/** A moment as the pastor reads it, e.g. "24.11.2026, 16:40", in the given time zone. */
export function displayDateTime(iso: string, timeZone: string): string {
  return dateFormat("pl-PL", { timeZone, dateStyle: "short", timeStyle: "short" }).format(new Date(iso));
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A real calendar day written as YYYY-MM-DD (what a date input sends), from
 * 1900 on: the one rule for article and album dates.
 */
export function isCalendarDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1900 && date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

export type TextPart = { kind: "text"; value: string } | { kind: "link"; href: string };

const URL_PATTERN = /https?:\/\/[^\s<>"]+/g;
// Punctuation that usually ends a sentence rather than the address.
const TRAILING = new Set(".,;:!?)]}'\"");

/**
 * `text` without the run of characters at its end for which `drop` holds.
 * A loop, not `/[…]+$/`: that pattern restarts at every character of a long
 * run that is followed by something else, quadratic time on hostile text.
 */
export function trimEndWhile(text: string, drop: (char: string) => boolean): string {
  let end = text.length;
  while (end > 0 && drop(text[end - 1])) end--;
  return text.slice(0, end);
}

/** Splits text into plain parts and http(s) links, for rendering without innerHTML. */
export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const href = trimEndWhile(match[0], (c) => TRAILING.has(c));
    const start = match.index!;
    if (start > last) parts.push({ kind: "text", value: text.slice(last, start) });
    parts.push({ kind: "link", href });
    last = start + href.length;
  }
  if (last < text.length) parts.push({ kind: "text", value: text.slice(last) });
  return parts;
}

// Punctuation and spaces that should not stand before the ellipsis.
const BEFORE_ELLIPSIS = new Set(" \t\n\r.,;:–-");

/** The start of a text on one line, cut to `max` characters at a word boundary, with an ellipsis. */
export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${trimEndWhile(space > max / 2 ? cut.slice(0, space) : cut, (c) => BEFORE_ELLIPSIS.has(c))}…`;
}

/** A search-result description: at most ~155 characters. */
export function describe(text: string, max = 155): string {
  return shorten(text, max);
}

// Control characters other than tab and line ends, and U+FFFD (what bytes
// that were not UTF-8 decode to): never part of what was typed.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFD]/g;

/** A one-line field as stored: no control characters, each run of white space one space, trimmed. */
export function cleanLine(value: string): string {
  return value.replace(CONTROL, "").replace(/\s+/g, " ").trim();
}

/** A multi-line field as stored: `\n` line ends, no control characters or trailing spaces, at most one empty line in a row, trimmed. */
export function cleanParagraphs(value: string): string {
  return value
    .replace(/\r\n?/g, "\n")
    .replace(CONTROL, "")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
