// The congregation's facts: read (cached by the content version, never
// written on read), checked and saved with the two-tab version check, and
// shaped for public pages.
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { sampleFacts } from "~/content/church";
import { type Actor, recordActivity } from "~/features/activity/activity.server";
import {
  checkHttpsUrl,
  checkGoogleCalendarUrl,
  checkMapEmbedUrl,
  checkNip,
  checkNrb,
  checkPhone,
  checkPostalCode,
  checkRegon,
  groupNrb,
  phoneView,
} from "~/features/church/checks";
import {
  type ChurchFacts,
  FACT_FIELDS,
  FACT_LABELS,
  type FactField,
  type PublicFacts,
  QR_RECIPIENT_MAX,
  QR_TITLE_MAX,
  type SiteNames,
} from "~/features/church/facts";
import { clock } from "~/services/clock.server";
import { type Config, config } from "~/services/config.server";
import { contentChanged, currentContentVersion } from "~/services/content-version.server";
import { type Db, withDb } from "~/services/db.server";
import { churchFacts } from "~/services/schema";
import { churchPayload, paymentCodeAddress } from "~/features/giving/payment-qr.server";

const ROW_ID = 1;

export interface StoredFacts {
  facts: ChurchFacts;
  /** Fields still holding sample values. */
  sample: FactField[];
  /** 0 while nothing has been saved. */
  version: number;
}

const textList = z.array(z.string());
/** The stored JSON: a row written by an older version may lack newer fields, which then keep their samples. */
const storedSchema = z.object({
  name: z.string(),
  headerLine1: z.string(),
  headerLine2: z.string(),
  footerName: z.string(),
  street: z.string(),
  postalCode: z.string(),
  city: z.string(),
  mapEmbedUrl: z.string(),
  email: z.string(),
  phones: textList,
  nip: z.string(),
  regon: z.string(),
  videoChannelUrl: z.string(),
  googleCalendarUrl: z.string(),
  bankName: z.string(),
  holder: z.string(),
  account: z.string(),
  transferTitle: z.string(),
  qrRecipient: z.string(),
  qrTitle: z.string(),
  verseText: z.string(),
  verseReference: z.string(),
  welcome: textList,
  history: textList,
  creed: textList,
}) satisfies z.ZodType<ChurchFacts>;

const sampleOnly = (): StoredFacts => ({ facts: sampleFacts, sample: [...FACT_FIELDS], version: 0 });

/**
 * The numbers a real site keeps from visitors while they are samples: made-up
 * ones someone might call, or send money to. In the panel's words, in the
 * order of its note ('Do uzupełnienia: numer konta, telefony, NIP, REGON').
 */
export const GUARDED_FACTS = { account: "numer konta", phones: "telefony", nip: "NIP", regon: "REGON" } as const;
type GuardedFact = keyof typeof GUARDED_FACTS;
const GUARDED = Object.keys(GUARDED_FACTS) as GuardedFact[];

/** The digits of a number as typed, so "000-000-00-00" and "0000000000" are the same NIP. */
function digitsOf(value: string | string[]): string {
  let out = "";
  for (const c of Array.isArray(value) ? value.join("|") : value) if ((c >= "0" && c <= "9") || c === "|") out += c;
  return out;
}

/**
 * A guarded number is a sample while its stored flag says so (never
 * changed), and also when it holds the sample's digits again (typed back by
 * mistake, or restored): the sample numbers are made up either way.
 */
function isSampleNumber(field: GuardedFact, facts: ChurchFacts): boolean {
  return digitsOf(facts[field]) === digitsOf(sampleFacts[field]);
}

function fromRow(row: { data: unknown; sample: string[]; version: number } | undefined): StoredFacts {
  if (!row) return sampleOnly();
  const parsed = storedSchema.partial().safeParse(row.data);
  const data = parsed.success ? parsed.data : {};
  const facts = { ...sampleFacts, ...data };
  const sample = FACT_FIELDS.filter(
    (f) =>
      row.sample.includes(f) ||
      data[f] === undefined ||
      (GUARDED.includes(f as GuardedFact) && isSampleNumber(f as GuardedFact, facts)),
  );
  return { facts, sample, version: row.version };
}

async function readRow(db: Pick<Db, "select">): Promise<StoredFacts> {
  const [row] = await db
    .select({ data: churchFacts.data, sample: churchFacts.sample, version: churchFacts.version })
    .from(churchFacts)
    .where(eq(churchFacts.id, ROW_ID));
  return fromRow(row);
}

// Every page reads the facts (the header and footer name the congregation):
// kept per content version, which every save bumps on every instance.
let cached: { contentVersion: number; stored: Promise<StoredFacts> } | null = null;

/** The facts as stored now (or the samples of a new site). */
export async function readFacts(): Promise<StoredFacts> {
  const contentVersion = await currentContentVersion();
  if (cached?.contentVersion !== contentVersion) {
    const stored = withDb(readRow);
    cached = { contentVersion, stored };
    stored.catch(() => {
      if (cached?.stored === stored) cached = null;
    });
  }
  return cached.stored;
}

let lastRead: StoredFacts | null = null;

/**
 * The names for the header and footer of every page, even an error page
 * while the database is down: then the last ones read (or the samples).
 */
export async function siteNamesForLayout(): Promise<SiteNames> {
  try {
    lastRead = await readFacts();
  } catch {
    // The page itself reports the outage.
  }
  return siteNames((lastRead ?? sampleOnly()).facts);
}

/** The facts read again from the database (the pastor's form, which must show the latest version). */
export function readFactsFresh(): Promise<StoredFacts> {
  return withDb(readRow);
}

/** The map follows the address unless a Google Maps embed address was pasted. */
export function mapEmbedUrl(facts: Pick<ChurchFacts, "mapEmbedUrl" | "street" | "city">): string {
  if (facts.mapEmbedUrl) return facts.mapEmbedUrl;
  const q = `${facts.street}, ${facts.city}`;
  return `https://www.google.com/maps?${new URLSearchParams({ q, output: "embed" })}`;
}

/**
 * A database of its own and no demo content: visitors are real people who
 * might send money. The embedded default and any site seeded with demo
 * content show every sample, as a demo should.
 */
export function hidesSamples(cfg: Config = config()): boolean {
  return cfg.database.kind === "postgres" && !cfg.seedDemo;
}

/**
 * The facts a visitor sees. A real site (a database of its own, not a
 * demo) leaves out a sample bank account (the giving block), phones, NIP or
 * REGON, so a made-up number never reaches a giver.
 */
export function publicFacts(
  { facts, sample }: Pick<StoredFacts, "facts" | "sample">,
  { hideSamples = hidesSamples() }: { hideSamples?: boolean } = {},
): PublicFacts {
  const hidden = (f: GuardedFact) => hideSamples && sample.includes(f);
  return {
    name: facts.name,
    headerLine1: facts.headerLine1,
    headerLine2: facts.headerLine2,
    footerName: facts.footerName,
    address: { street: facts.street, postalCode: facts.postalCode, city: facts.city },
    mapEmbedUrl: mapEmbedUrl(facts),
    email: facts.email,
    phones: hidden("phones") ? [] : facts.phones.map(phoneView),
    nip: hidden("nip") ? null : facts.nip,
    regon: hidden("regon") ? null : facts.regon,
    videoChannelUrl: facts.videoChannelUrl,
    googleCalendarUrl: facts.googleCalendarUrl,
    bank: hidden("account")
      ? null
      : {
          bankName: facts.bankName,
          holder: facts.holder,
          account: groupNrb(facts.account),
          transferTitle: facts.transferTitle,
        },
    verse: { text: facts.verseText, reference: facts.verseReference },
    welcome: facts.welcome,
    history: facts.history,
    creed: facts.creed,
  };
}

/**
 * The text of the "Zapłać kodem" QR code a visitor may be shown, or null.
 * The code carries the NIP as well as the account, so on a real site either
 * one still a sample leaves it out (the account alone is then shown as text).
 */
export function publicPaymentPayload(
  { facts, sample }: Pick<StoredFacts, "facts" | "sample">,
  { hideSamples = hidesSamples() }: { hideSamples?: boolean } = {},
): string | null {
  if (hideSamples && (sample.includes("account") || sample.includes("nip"))) return null;
  return churchPayload(facts);
}

/** What the header and footer need, for the root loader. */
export function siteNames(facts: ChurchFacts): SiteNames {
  const { name, headerLine1, headerLine2, footerName } = facts;
  return { name, headerLine1, headerLine2, footerName };
}

/** The panel home's note: the guarded numbers still samples, e.g. ['numer konta', 'telefony', 'NIP']. */
export function samplesToFill(sample: FactField[]): string[] {
  return GUARDED.filter((f) => sample.includes(f)).map((f) => GUARDED_FACTS[f]);
}

// ---------------------------------------------------------------------------
// Saving.

/** The form's values as typed: lists as one entry per line or paragraph. */
export type FactsForm = Record<FactField, string>;

const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFD]/g;
const clean = (value: string) => value.replace(/\r\n?/g, "\n").replace(CONTROL, "").trim();

const LIST_FIELDS = new Set<FactField>(["phones", "welcome", "history", "creed"]);
// Phones one a line; texts as paragraphs, separated by an empty line.
const PER_LINE = new Set<FactField>(["phones", "creed"]);

function splitList(field: FactField, text: string): string[] {
  const parts = PER_LINE.has(field) ? text.split("\n") : text.split("\n\n");
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** A stored fact as the form shows it. */
export function formValue(facts: ChurchFacts, field: FactField): string {
  const value = facts[field];
  if (Array.isArray(value)) return value.join(PER_LINE.has(field) ? "\n" : "\n\n");
  return field === "account" ? groupNrb(value) : value;
}

export function factsForm(facts: ChurchFacts): FactsForm {
  return Object.fromEntries(FACT_FIELDS.map((f) => [f, formValue(facts, f)])) as FactsForm;
}

/** Fields that may be left empty. */
const OPTIONAL = new Set<FactField>([
  "mapEmbedUrl",
  "googleCalendarUrl",
  "welcome",
  "history",
  "creed",
  "regon",
  "videoChannelUrl",
]);

const LIMITS: Partial<Record<FactField, number>> = { qrRecipient: QR_RECIPIENT_MAX, qrTitle: QR_TITLE_MAX };

function checkField(field: FactField, text: string): string | null {
  if (!text) return OPTIONAL.has(field) ? null : `Uzupełnij pole „${FACT_LABELS[field]}”.`;
  const max = LIMITS[field];
  // Counted as the pastor types: "ż" is one character.
  if (max && [...text].length > max) return `Najwyżej ${max} znaków (jest ${[...text].length}).`;
  if ((field === "qrRecipient" || field === "qrTitle") && text.includes("|")) return "Bez znaku „|”.";
  switch (field) {
    case "account":
      return checkNrb(text);
    case "nip":
      return checkNip(text);
    case "regon":
      return checkRegon(text);
    case "postalCode":
      return checkPostalCode(text);
    case "phones":
      return splitList(field, text).map(checkPhone).find(Boolean) ?? null;
    case "videoChannelUrl":
      return checkHttpsUrl(text);
    case "mapEmbedUrl":
      return checkMapEmbedUrl(text);
    case "googleCalendarUrl":
      return checkGoogleCalendarUrl(text);
    case "email":
      return z.string().email().safeParse(text).success ? null : "Podaj adres e-mail, np. kontakt@zbor.pl.";
    default:
      return null;
  }
}

export type SaveFactsResult =
  | { ok: true; changed: FactField[] }
  | { ok: false; status: 400; errors: Partial<Record<FactField, string>> }
  | { ok: false; status: 409; current: StoredFacts; changed: FactField[] };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function toFact(field: FactField, text: string): ChurchFacts[FactField] {
  if (LIST_FIELDS.has(field)) return splitList(field, text);
  if (field === "account") return groupNrb(text);
  return text;
}

/**
 * Checks and saves what the form sent. Fields not sent keep their value. A
 * sample left unchanged is kept as a sample without being checked (the
 * sample phones are not real numbers). Refused when the facts changed since
 * `baseVersion` (another tab saved first).
 */
export async function saveFacts(
  form: Partial<Record<FactField, unknown>>,
  { baseVersion, actor }: { baseVersion: unknown; actor: Actor },
): Promise<SaveFactsResult> {
  return withDb(async (db) => {
    const outcome = await db.transaction(async (tx) => {
      // The row lock keeps two saves from both passing the version check.
      await tx.execute(sql`select pg_advisory_xact_lock(${0x63687572})`);
      const current = await readRow(tx);
      const base = Number(baseVersion);
      const facts: ChurchFacts = { ...current.facts };
      const sample = new Set(current.sample);
      const errors: Partial<Record<FactField, string>> = {};
      const changed: FactField[] = [];
      for (const field of FACT_FIELDS) {
        const raw = form[field];
        if (typeof raw !== "string") continue;
        const text = clean(raw);
        if (text === formValue(current.facts, field)) continue;
        const error = checkField(field, text);
        if (error) {
          errors[field] = error;
          continue;
        }
        const value = toFact(field, text);
        if (same(value, current.facts[field])) continue;
        (facts as Record<FactField, unknown>)[field] = value;
        sample.delete(field);
        changed.push(field);
      }
      if (Object.keys(errors).length) return { ok: false as const, status: 400 as const, errors };
      if (!changed.length) return { ok: true as const, changed };
      if (!Number.isSafeInteger(base) || base !== current.version) {
        return { ok: false as const, status: 409 as const, current, changed };
      }
      const now = clock.now();
      const left = FACT_FIELDS.filter((f) => sample.has(f));
      await tx
        .insert(churchFacts)
        .values({ id: ROW_ID, data: facts, sample: left, version: current.version + 1, updatedAt: now })
        .onConflictDoUpdate({
          target: churchFacts.id,
          set: { data: facts, sample: left, version: current.version + 1, updatedAt: now },
        });
      await recordActivity(tx, {
        actor,
        action: "edited",
        subject: { kind: "church", id: ROW_ID, title: changed.map((f) => FACT_LABELS[f]).join(", ") },
      });
      return { ok: true as const, changed };
    });
    if (outcome.ok && outcome.changed.length) await contentChanged(db);
    return outcome;
  });
}

/** A new site's facts row, every field a sample (start-up, when there is none). */
export async function seedFacts(db: Db): Promise<void> {
  await db
    .insert(churchFacts)
    .values({ id: ROW_ID, data: sampleFacts, sample: [...FACT_FIELDS], version: 1, updatedAt: clock.now() })
    .onConflictDoNothing();
}

/** What the home and contact pages need: the public facts and the QR code's address (none while hidden). */
export async function pageFacts(): Promise<{ facts: PublicFacts; paymentCodeSrc: string | null }> {
  const stored = await readFacts();
  const facts = publicFacts(stored);
  const payload = facts.bank ? publicPaymentPayload(stored) : null;
  return { facts, paymentCodeSrc: payload ? paymentCodeAddress(payload) : null };
}
