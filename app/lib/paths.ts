// Every address of the site, public and pastor area, and the builders of the
// addresses that carry an id or a title. Client-safe: components render them,
// and `.server` modules import them from here, never the reverse.

// ---------------------------------------------------------------------------
// Public pages.

export const HOME_PATH = "/";
export const ABOUT_PATH = "/onas";
export const NEWS_PATH = "/aktualnosci";
export const RSS_PATH = "/aktualnosci/rss.xml";
export const GALLERIES_PATH = "/galeria";
export const MINISTRIES_PATH = "/sluzby";
export const CALENDAR_PATH = "/kalendarz";
export const CONTACT_PATH = "/kontakt";
export const PRIVACY_PATH = "/polityka-prywatnosci";
/** Where the cookie notice's 'Akceptuję' posts. */
export const ACCEPT_COOKIES_PATH = "/akceptuje";
/** The banks' QR transfer code of the bank details. */
export const PAYMENT_CODE_PATH = "/kod-przelewu.svg";
export const SITEMAP_PATH = "/sitemap.xml";
/** Uploaded files on disk storage are served under this prefix. */
export const FILES_PATH = "/pliki";

export const testimonyPath = (id: number) => `${ABOUT_PATH}/swiadectwa/${id}`;
export const articlePath = (id: string) => `${NEWS_PATH}/${encodeURIComponent(id)}`;
/** One event's page; a recurring event's occurrence is named by its day (`/kalendarz/12/2026-12-06`). */
export const calendarEventPath = (id: number, day: string | null = null) =>
  day ? `${CALENDAR_PATH}/${id}/${day}` : `${CALENDAR_PATH}/${id}`;
export const CALENDAR_FEED_PATH = "/kalendarz.ics";
/** Where the Google Calendar is shown below the site's own. */
export const CALENDAR_GOOGLE_ID = "kalendarz-google";
/** The calendar's month view (`YYYY-MM`). */
export const calendarMonthPath = (month: string) => `${CALENDAR_PATH}?miesiac=${month}`;
/**
 * The calendar (the upcoming weeks, or a month) with the congregation's
 * Google Calendar below it, when 'Dane zboru' names one: asked for by a
 * click, so nothing is fetched from Google before it. The page cache keeps
 * only the calendar without it (`google` is not a query it knows).
 */
export const calendarWithGooglePath = (month: string | null = null) =>
  `${CALENDAR_PATH}?${month ? `miesiac=${month}&` : ""}google=1#${CALENDAR_GOOGLE_ID}`;
/** One page of the news list; the first is the list's own address. */
export const newsPagePath = (page: number) => (page === 1 ? NEWS_PATH : `${NEWS_PATH}?strona=${page}`);
/**
 * An album title as the last segment of an address. Remix reads an address
 * ending in ".data" as a data request (single fetch), so that dot goes
 * encoded; the pages decode the segment as before.
 */
export const titleSegment = (title: string) => encodeURIComponent(title).replace(/\.(data)$/, "%2E$1");
/** Public gallery address for a title, as the original site built it. */
export const galleryPath = (title: string) => `${GALLERIES_PATH}/${titleSegment(title)}`;

// ---------------------------------------------------------------------------
// The pastor area.

export const PANEL_PATH = "/strefapastora";
export const LOGIN_PATH = "/strefapastora/logowanie";
export const LOGOUT_PATH = "/strefapastora/wyloguj";

export const PASTOR_ARTICLES_PATH = "/strefapastora/artykuly";
export const DEVICES_PATH = "/strefapastora/urzadzenia";
export const TWO_FACTOR_PATH = "/strefapastora/weryfikacja-dwuetapowa";
export const ADD_ARTICLE_PATH = "/strefapastora/artykuly/dodaj";
export const pastorArticlePath = (id: string) => `${PASTOR_ARTICLES_PATH}/${encodeURIComponent(id)}`;
/** The pastor's preview of an article: the public page, also for a draft or a scheduled one. */
export const articlePreviewPath = (id: string) => `${pastorArticlePath(id)}/podglad`;
export const editArticlePath = (id: string) => `${PASTOR_ARTICLES_PATH}/edytuj/${encodeURIComponent(id)}`;
/** Where the article forms' upload script posts (the contract: app/components/upload-progress.tsx). */
export const ADD_ARTICLE_UPLOAD_PATH = `${ADD_ARTICLE_PATH}/wyslij`;
export const editArticleUploadPath = (id: string) => `${editArticlePath(id)}/wyslij`;

export const PASTOR_GALLERIES_PATH = "/strefapastora/galeria";
/**
 * Where an unknown album sends the pastor: the album list. The original site
 * wrote it with a trailing slash; that spelling answers 301 to this one, so
 * the redirect names the canonical address and saves a phone a round trip.
 */
export const UNKNOWN_GALLERY_REDIRECT = PASTOR_GALLERIES_PATH;
export const ADD_GALLERY_PATH = "/strefapastora/galeria/dodaj";
/** Where the album editor's script sends photos one by one, and new orders after a drag. */
export const GALLERY_PHOTOS_PATH = "/strefapastora/galeria/dodaj/zdjecia";
export const EDIT_GALLERY_PREFIX = "/strefapastora/galeria/edytuj/";
export const pastorGalleryPath = (title: string) => `${PASTOR_GALLERIES_PATH}/${titleSegment(title)}`;
/** Ends the preview's address; a title never holds a literal slash (it goes as %2F). */
export const PREVIEW_SUFFIX = "/podglad";
export const galleryPreviewPath = (title: string) => `${pastorGalleryPath(title)}${PREVIEW_SUFFIX}`;
export const editGalleryPath = (title: string) => `${EDIT_GALLERY_PREFIX}${titleSegment(title)}`;

/**
 * The title named by a `/galeria/{slug}` path segment, taken from the raw
 * (still encoded) URL so that titles holding `/`, `%` or `?` round-trip.
 */
export function titleFromSlug(rawSegment: string): string | null {
  if (rawSegment.length === 0 || rawSegment.length > 2000) return null;
  let title: string;
  try {
    title = decodeURIComponent(rawSegment);
  } catch {
    return null;
  }
  // No album title holds control characters (they are refused on save), and
  // Postgres refuses a NUL byte in a query outright.
  return /[\u0000-\u001f\u007f]/.test(title) ? null : title;
}

/** True for the pastor area's own addresses (not for e.g. /strefapastoraX). */
export function isPastorPath(pathname: string): boolean {
  return pathname === PANEL_PATH || pathname.startsWith(`${PANEL_PATH}/`);
}

/** The bin: deleted articles and albums, for 30 days. */
export const BIN_PATH = "/strefapastora/kosz";
export const PASTOR_FACTS_PATH = "/strefapastora/dane-zboru";
export const PASTOR_MINISTRIES_PATH = "/strefapastora/sluzby";
export const PASTOR_TESTIMONIES_PATH = "/strefapastora/swiadectwa";
/** The photos of 'Zdjęcia' on /onas. */
export const PASTOR_HISTORY_PHOTOS_PATH = "/strefapastora/zdjecia-historii";
export const ADD_TESTIMONY_PATH = `${PASTOR_TESTIMONIES_PATH}/dodaj`;
export const editTestimonyPath = (id: number) => `${PASTOR_TESTIMONIES_PATH}/edytuj/${id}`;
/** The pastor's events (the calendar's contents). */
export const PASTOR_EVENTS_PATH = "/strefapastora/wydarzenia";
export const ADD_EVENT_PATH = `${PASTOR_EVENTS_PATH}/dodaj`;
export const editEventPath = (id: number) => `${PASTOR_EVENTS_PATH}/edytuj/${id}`;
/** Where the event forms' upload script posts (the contract: app/components/upload-progress.tsx). */
export const ADD_EVENT_UPLOAD_PATH = `${ADD_EVENT_PATH}/wyslij`;
export const editEventUploadPath = (id: number) => `${editEventPath(id)}/wyslij`;
/** One occurrence of a recurring event: cancel, restore or move it. */
export const eventOccurrenceAdminPath = (id: number, day: string) => `${editEventPath(id)}/termin/${day}`;
/** The history of changes, the last year. */
export const ACTIVITY_PATH = "/strefapastora/historia-zmian";
export const activityPagePath = (page: number) => (page === 1 ? ACTIVITY_PATH : `${ACTIVITY_PATH}?strona=${page}`);
