// The values of an album as the pastor types them, and the rules a saved album
// obeys. No server imports: the editor may render the limits and messages.
import { isCalendarDate } from "~/lib/text";
import type { DraftFeedback } from "~/services/schema";

export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 20_000;

export const GALLERY_MESSAGES = {
  titleTaken: "Jest już galeria o podanym tytule!",
  titleEmpty: "Podaj tytuł galerii.",
  titleTooLong: `Tytuł może mieć najwyżej ${TITLE_MAX} znaków.`,
  titleControl: "Tytuł nie może zawierać znaków sterujących.",
  // "." and ".." are removed from addresses by every browser.
  titleDots: "Tytuł nie może składać się z samych kropek.",
  // /strefapastora/galeria/dodaj is the page for adding albums.
  titleReserved: "Tytuł „dodaj” jest zajęty przez stronę dodawania galerii. Wybierz inny tytuł.",
  descriptionTooLong: `Opis może mieć najwyżej ${DESCRIPTION_MAX} znaków.`,
  dateEmpty: "Podaj datę galerii.",
  dateInvalid: "Podaj poprawną datę (RRRR-MM-DD).",
  imageUnknown: "Nie ma takiego zdjęcia w galerii. Odśwież stronę i spróbuj ponownie.",
  draftGone: "Ten szkic galerii wygasł lub został już zapisany. Zacznij od nowa.",
  galleryGone: "Ta galeria została w międzyczasie usunięta.",
  notSavedRefused:
    "Galerii nie zapisano, bo nie wszystkie wybrane zdjęcia udało się dodać. Sprawdź listę i naciśnij „zapisz” jeszcze raz.",
  storeFailed: "nie udało się zapisać zdjęcia, spróbuj ponownie",
  conflict:
    "Ta galeria została zmieniona w innym oknie lub na innym urządzeniu, odkąd zacząłeś edycję. Nic nie zapisano.",
} as const;

export interface GalleryValues {
  title: string;
  description: string;
  date: string;
  /** The publication date-time field as typed (Warsaw wall time); empty means now. */
  publishAt?: string;
}

// C0 controls and DEL; NUL cannot even be stored in a Postgres text column.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Text as it may be kept in a draft: no NUL, which Postgres refuses, and line breaks as \n. */
export function draftText(value: string): string {
  return value.replace(/\u0000/g, "").replace(/\r\n?/g, "\n");
}

/** Trimmed and in one Unicode form, so that "ó" typed two ways is one title. */
export function normalizeTitle(title: string): string {
  return title.normalize("NFC").trim();
}

export type FieldErrors = NonNullable<DraftFeedback["fieldErrors"]>;

/** The values as they will be saved, or what is wrong with them (Polish). */
export function checkGalleryValues(input: GalleryValues): { values: GalleryValues; fieldErrors: FieldErrors | null } {
  const title = normalizeTitle(input.title);
  const description = draftText(input.description)
    .replace(/[\u0001-\u0008\u000b-\u001f\u007f]/g, "")
    .trim();
  const date = input.date.trim();
  const errors: FieldErrors = {};
  if (!title) errors.title = GALLERY_MESSAGES.titleEmpty;
  else if ([...title].length > TITLE_MAX) errors.title = GALLERY_MESSAGES.titleTooLong;
  else if (CONTROL.test(title)) errors.title = GALLERY_MESSAGES.titleControl;
  else if (/^\.+$/.test(title) && title.length <= 2) errors.title = GALLERY_MESSAGES.titleDots;
  else if (title.toLowerCase() === "dodaj") errors.title = GALLERY_MESSAGES.titleReserved;
  if ([...description].length > DESCRIPTION_MAX) errors.description = GALLERY_MESSAGES.descriptionTooLong;
  if (!date) errors.date = GALLERY_MESSAGES.dateEmpty;
  else if (!isCalendarDate(date)) errors.date = GALLERY_MESSAGES.dateInvalid;
  return {
    values: { title, description, date, publishAt: (input.publishAt ?? "").trim() },
    fieldErrors: Object.keys(errors).length ? errors : null,
  };
}
