// An ascending index also serves `ORDER BY date DESC, id DESC` by a backward scan.
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { ActivityAction, ActivitySubject } from "~/lib/activity-kinds";

/**
 * Images are stored as a storage key plus their pixel size. The key names
 * the large JPEG; the smaller WebP variants are derived from it
 * (see app/lib/image-variants.ts), so moving storage never touches rows.
 */

export const articles = pgTable(
  "articles",
  {
    // Creation time in milliseconds as text, as in the original data.
    id: text("id").primaryKey(),
    header: text("header").notNull(),
    text: text("text").notNull(),
    // `YYYY-MM-DD`, or legacy free text where only the part before the
    // first comma is shown.
    date: text("date").notNull(),
    imageKey: text("image_key"),
    imageWidth: integer("image_width"),
    imageHeight: integer("image_height"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    // Bumped by every save; an edit begun from an older version is refused, never saved over a newer one.
    version: integer("version").notNull().default(1),
    // Set when the article is moved to the bin: it is then gone from every
    // page but the bin, its photo stays stored until it is purged.
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    // Who moved it there (the e-mail, kept if the account is removed).
    deletedBy: text("deleted_by"),
    // When visitors may see it: null is a draft, a future moment a scheduled
    // item (see app/features/publishing/publication.server.ts). Rows written
    // without one (seed, import) are published when written.
    publishAt: timestamp("publish_at", { withTimezone: true }).defaultNow(),
  },
  (t) => [index("articles_date_idx").on(t.date, t.id), index("articles_publish_at_idx").on(t.publishAt)],
);

export const galleries = pgTable(
  "galleries",
  {
    id: serial("id").primaryKey(),
    // Unique among live albums: the public URL is /galeria/{encodeURIComponent(title)}.
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    date: text("date").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    // Bumped by every save; an edit begun from an older version is refused, never saved over a newer one.
    version: integer("version").notNull().default(1),
    // Set when the album is moved to the bin (see articles.deletedAt).
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    deletedBy: text("deleted_by"),
    // As on articles: null is a draft, a future moment a scheduled album.
    publishAt: timestamp("publish_at", { withTimezone: true }).defaultNow(),
  },
  (t) => [
    // Unique among albums not in the bin: a binned album does not keep its
    // title from a new one (restoring it then asks for another title).
    uniqueIndex("galleries_title_key")
      .on(t.title)
      .where(sql`${t.deletedAt} is null`),
    index("galleries_date_idx").on(t.date, t.id),
    index("galleries_publish_at_idx").on(t.publishAt),
  ],
);

export const galleryImages = pgTable(
  "gallery_images",
  {
    id: serial("id").primaryKey(),
    galleryId: integer("gallery_id")
      .notNull()
      .references(() => galleries.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    imageKey: text("image_key").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    // What a screen reader says of the photo; empty means the album title and position.
    alt: text("alt").notNull().default(""),
  },
  (t) => [
    index("gallery_images_gallery_position_idx").on(t.galleryId, t.position),
    // Before a file is deleted, every row that names it is looked up.
    index("gallery_images_key_idx").on(t.imageKey),
  ],
);

export const historyPhotos = pgTable("history_photos", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  imageKey: text("image_key").notNull(),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  position: integer("position").notNull().default(0),
  // Bumped by every new description; one begun from an older version is refused, never saved over a newer one.
  version: integer("version").notNull().default(1),
});

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    // The second factor (RFC 6238). The secret is kept as it is, base32: the
    // server must compute codes from it, so a hash would not do; it is as
    // safe as the database itself (DATA_DIR permissions, database access).
    totpSecret: text("totp_secret"),
    totpEnabledAt: timestamp("totp_enabled_at", { withTimezone: true }),
    // The last time step whose code signed in: a code is refused the second time.
    totpLastStep: integer("totp_last_step"),
    // A secret being set up, kept here (not in the form) so that the page
    // works without JavaScript across the round trip to the first code.
    pendingTotpSecret: text("pending_totp_secret"),
  },
  // E-mail addresses are unique regardless of letter case.
  (t) => [uniqueIndex("users_email_lower_key").on(sql`lower(${t.email})`)],
);

/**
 * Signed-in sessions. The cookie holds a random id; only its SHA-256 is
 * stored, so a copy of the database cannot be replayed as a cookie.
 * Deleting a row ends the session at once (logout, password change).
 */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // Sliding idle expiry, pushed forward as the session is used.
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    // What the pastor's devices page shows of the sign-in: the browser's
    // User-Agent and the client address, as they were then.
    userAgent: text("user_agent"),
    address: text("address"),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

/**
 * Browsers an account has signed in from ('zapamiętane urządzenia'). The
 * device cookie holds a random token; only its SHA-256 is stored, as for
 * sessions. A row lets that browser past the per-e-mail slowdown of sign-in
 * and keep a form posted after its session ended (app/features/kept-forms).
 * Deleting the row (the devices page, a password change, a reset of the
 * second factor, the account's removal) takes both back at once.
 */
export const devices = pgTable(
  "devices",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    // The last sign-in or kept form from it; unused for a year, it is forgotten.
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull(),
    userAgent: text("user_agent"),
  },
  (t) => [index("devices_user_idx").on(t.userId), index("devices_last_used_idx").on(t.lastUsedAt)],
);

/**
 * Failed sign-in attempts of the last hour, counted per client address and
 * e-mail, per address, and per e-mail from all addresses. Shared by every
 * app instance; a limit is a count over a sliding window, so no lock rows.
 */
/**
 * Single-use recovery codes of the second factor; only a SHA-256 of each is
 * stored (they are random, so a plain hash cannot be reversed by guessing).
 */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("recovery_codes_user_hash_key").on(t.userId, t.codeHash)],
);

export const loginFailures = pgTable(
  "login_failures",
  {
    id: serial("id").primaryKey(),
    // The client's address as the front door saw it (an IPv6 client by its /64).
    address: text("address").notNull(),
    // Lower-cased as typed; need not name an existing account.
    email: text("email").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("login_failures_address_at_idx").on(t.address, t.at),
    index("login_failures_email_at_idx").on(t.email, t.at),
    index("login_failures_at_idx").on(t.at),
  ],
);

/**
 * Albums being put together in the pastor area, kept on the server so that
 * nothing typed or uploaded is lost between page round trips (the editor
 * works without JavaScript). A draft belongs to one user; `galleryId` names
 * the album being edited, or is null for a new one. Drafts untouched for a
 * day are removed together with the files only they referenced.
 */
export const galleryDrafts = pgTable(
  "gallery_drafts",
  {
    // Random and unguessable: it appears in the editor's address (?szkic=).
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // Deleting the album ends its edit drafts; their files are swept later.
    galleryId: integer("gallery_id").references(() => galleries.id, { onDelete: "cascade" }),
    title: text("title").notNull().default(""),
    description: text("description").notNull().default(""),
    date: text("date").notNull(),
    // The publication date-time field as typed (Warsaw wall time); the
    // album's publish_at is set from it when the album is saved.
    publishAtText: text("publish_at_text").notNull().default(""),
    // Uploads of this draft go under galeria/{folder}/, so keys are never reused.
    folder: text("folder").notNull(),
    // The album's version when this edit began (null for a new album): a save over a newer one is refused.
    baseVersion: integer("base_version"),
    // What the last step reported (refused files, a refused title), shown until the next step.
    feedback: jsonb("feedback").$type<DraftFeedback>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("gallery_drafts_updated_idx").on(t.updatedAt), index("gallery_drafts_gallery_idx").on(t.galleryId)],
);

export interface DraftFeedback {
  /** '7 z 8 zdjęć dodano; IMG_0042.HEIC: format HEIC nie jest obsługiwany' */
  report?: string;
  /** Advice that goes with the report (how to send iPhone photos as JPEG). */
  hint?: string;
  /** A message for the whole form, e.g. 'Jest już galeria o podanym tytule!'. */
  error?: string;
  fieldErrors?: { title?: string; description?: string; date?: string; publishAt?: string };
  /** A save refused because the album changed since the edit began. */
  conflict?: {
    version: number;
    /** What differs, in Polish: 'tytuł', 'opis', 'data', 'dodane zdjęcia', 'usunięte zdjęcia', 'kolejność zdjęć'. */
    changed: string[];
    current: { title: string; description: string; date: string };
  };
}

export const galleryDraftImages = pgTable(
  "gallery_draft_images",
  {
    id: serial("id").primaryKey(),
    draftId: text("draft_id")
      .notNull()
      .references(() => galleryDrafts.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    imageKey: text("image_key").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    // What a screen reader says of the photo; empty means the album title and position.
    alt: text("alt").notNull().default(""),
    // The editor script's id for one chosen file: a retried upload whose
    // first try did arrive finds its photo instead of adding it twice.
    uploadId: text("upload_id"),
  },
  (t) => [
    // The key identifies an image in the editor's buttons.
    uniqueIndex("gallery_draft_images_draft_key").on(t.draftId, t.imageKey),
    uniqueIndex("gallery_draft_images_draft_upload").on(t.draftId, t.uploadId),
    index("gallery_draft_images_key_idx").on(t.imageKey),
  ],
);

/**
 * One row counting changes of what public pages show. Every save or delete
 * of an article, album or photo bumps it after its commit; page caches of
 * every instance compare it (see app/services/content-version.server.ts).
 */
export const contentVersion = pgTable("content_version", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull(),
  changedAt: timestamp("changed_at", { withTimezone: true }).notNull(),
});

/**
 * One row per one-time job over stored files that has finished (e.g. making
 * the WebP widths added after photos were stored), so that later starts do
 * not check storage for every photo again.
 */
export const imageBackfills = pgTable("image_backfills", {
  name: text("name").primaryKey(),
  doneAt: timestamp("done_at", { withTimezone: true }).notNull(),
});

/**
 * A form posted after its session had ended (expired, signed out elsewhere),
 * kept until the pastor signs in again and saves it. Kept only for a browser
 * with a genuine device token, whose e-mail is the owner; a few per owner and
 * for a day. The photo sent with it (raw bytes) is stored under `photoKey`.
 */
export const keptForms = pgTable(
  "kept_forms",
  {
    // Random and unguessable: it appears in the form's address (?zachowane=).
    id: text("id").primaryKey(),
    // The device token's e-mail (lower-cased).
    owner: text("owner").notNull(),
    // The device that posted it: only that browser gets it back, and it goes with the device.
    deviceId: text("device_id")
      .notNull()
      .references(() => devices.id, { onDelete: "cascade" }),
    // Which form: "article-add", "article-edit", "album-details".
    form: text("form").notNull(),
    // The page the form was on; the pastor is sent back there after sign-in.
    path: text("path").notNull(),
    fields: jsonb("fields").$type<Record<string, string>>().notNull(),
    photoKey: text("photo_key"),
    photoName: text("photo_name"),
    photoSize: integer("photo_size"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("kept_forms_owner_idx").on(t.owner, t.createdAt), index("kept_forms_expires_idx").on(t.expiresAt)],
);

/**
 * The history of changes ('historia zmian'): who did what and when, kept
 * for a year. The actor's e-mail is copied so an entry outlives the
 * account; the subject's title is copied so it outlives the subject.
 */
export const activityLog = pgTable(
  "activity_log",
  {
    id: serial("id").primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    // The pastor's e-mail, the e-mail typed at a refused sign-in, or empty for the site itself (a purge).
    actor: text("actor").notNull().default(""),
    action: text("action").$type<ActivityAction>().notNull(),
    subjectKind: text("subject_kind").$type<ActivitySubject>(),
    subjectId: text("subject_id"),
    subjectTitle: text("subject_title").notNull().default(""),
    // The client address, for sign-ins.
    address: text("address"),
    // How many refused sign-ins one line stands for (one line per address and window).
    count: integer("count").notNull().default(1),
  },
  (t) => [index("activity_log_at_idx").on(t.at)],
);

/**
 * Keys the app makes for itself once and every instance shares, e.g. the
 * device token's signing key (app/features/auth/device-token.server.ts),
 * which must outlive a change of the session secret.
 */
export const appKeys = pgTable("app_keys", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
});

/**
 * The congregation's facts (name, address, phones, bank account, texts of
 * the home and about pages): one row, id 1, whose `data` is checked by the
 * zod schema in app/features/church/facts.server.ts. `sample` names the
 * fields still holding a new site's sample values; `version` is the
 * two-tab conflict check.
 */
export const churchFacts = pgTable("church_facts", {
  id: integer("id").primaryKey(),
  data: jsonb("data").notNull(),
  sample: jsonb("sample").$type<string[]>().notNull(),
  version: integer("version").notNull().default(1),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
});

/** A ministry on /sluzby: its people in the order shown. */
export const ministries = pgTable("ministries", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  people: jsonb("people").$type<string[]>().notNull(),
  position: integer("position").notNull().default(0),
  // Bumped by every edit (name, people, description), not by moves; an edit begun from an older version is refused.
  version: integer("version").notNull().default(1),
});

/** A testimony on /onas and at /onas/swiadectwa/{id}; a hidden one is a draft, a deleted one is in the bin. */
export const testimonies = pgTable("testimonies", {
  id: serial("id").primaryKey(),
  title: text("title").notNull(),
  text: text("text").notNull(),
  author: text("author").notNull().default(""),
  hidden: boolean("hidden").notNull().default(false),
  position: integer("position").notNull().default(0),
  // Bumped by every edit and hide/show; an edit begun from an older version is refused, never saved over a newer one.
  version: integer("version").notNull().default(1),
  deletedAt: timestamp("deleted_at", { withTimezone: true }),
  // Who moved it to the bin (the e-mail, kept if the account is removed).
  deletedBy: text("deleted_by"),
});

/**
 * The congregation's calendar: one row per event, a one-off or a recurring
 * one. Times are Warsaw wall time (`YYYY-MM-DD`, `HH:MM`), not instants: a
 * meeting at 10:00 stays at 10:00 across the clock changes, and each
 * occurrence's instant is worked out when it is expanded
 * (app/features/events/recurrence.ts).
 */
export const events = pgTable(
  "events",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    place: text("place").notNull().default(""),
    // The first occurrence's day, and its start; a null time is an all-day event.
    startDate: text("start_date").notNull(),
    startTime: text("start_time"),
    // The end on the same day (timed), or the last day (all-day); null: no end given.
    endTime: text("end_time"),
    endDate: text("end_date"),
    imageKey: text("image_key"),
    imageWidth: integer("image_width"),
    imageHeight: integer("image_height"),
    // Recurrence: "none", "weekly" (on `weekdays`, every `interval` weeks) or
    // "monthly" (the `monthWeek`-th `weekdays[0]` of the month, -1 the last),
    // ending on `untilDate` (inclusive) or after `count` occurrences, or never.
    repeat: text("repeat").$type<"none" | "weekly" | "monthly">().notNull().default("none"),
    interval: integer("interval").notNull().default(1),
    // Two-letter iCalendar day names: "MO" … "SU".
    weekdays: jsonb("weekdays").$type<string[]>().notNull().default([]),
    monthWeek: integer("month_week"),
    untilDate: text("until_date"),
    count: integer("count"),
    // As on articles: null is a draft, a future moment a scheduled event.
    publishAt: timestamp("publish_at", { withTimezone: true }).defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    deletedBy: text("deleted_by"),
    // iCalendar SEQUENCE: raised by every change a subscriber's calendar must take (the event or one occurrence).
    sequence: integer("sequence").notNull().default(0),
    // Bumped by every save; an edit begun from an older version is refused.
    version: integer("version").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("events_publish_at_idx").on(t.publishAt), index("events_start_date_idx").on(t.startDate)],
);

/**
 * One occurrence of a recurring event cancelled ('odwołane', still listed),
 * moved to another day or time, or removed from the series (not listed, an
 * EXDATE in the feed), named by its original day.
 */
export const eventExceptions = pgTable(
  "event_exceptions",
  {
    id: serial("id").primaryKey(),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    occurrenceDate: text("occurrence_date").notNull(),
    kind: text("kind").$type<"cancelled" | "moved" | "removed">().notNull(),
    // Where a moved occurrence goes (Warsaw wall time); null for a cancelled one.
    movedDate: text("moved_date"),
    movedTime: text("moved_time"),
    movedEndTime: text("moved_end_time"),
  },
  (t) => [uniqueIndex("event_exceptions_occurrence_key").on(t.eventId, t.occurrenceDate)],
);
