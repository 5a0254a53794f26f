// Client-safe: the words the restored form shows.

/** Shown above a form restored after sign-in. */
export function keptFormMessage(withPhoto: boolean): string {
  return (
    "Sesja wygasła, zanim zapisano zmiany. Nic jeszcze nie zostało zapisane — poniżej jest Twój tekst" +
    (withPhoto ? " i wybrane zdjęcie" : "") +
    ". Sprawdź go i zapisz."
  );
}

/** The query parameter (and hidden field) naming a kept form. */
export const KEPT_PARAM = "zachowane";

export type KeptFormKind =
  | "article-add"
  | "article-edit"
  | "album-details"
  | "church-facts"
  | "testimony-add"
  | "testimony-edit"
  | "ministry"
  | "history-photo"
  | "event-add"
  | "event-edit";

/** What a page needs to know of the kept form it shows. */
export interface KeptFormView {
  key: string;
  /** A photo was kept with it and is used unless another is chosen. */
  photo: boolean;
  message: string;
}
