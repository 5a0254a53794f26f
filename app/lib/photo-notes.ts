// What a form with a photo says about it, the same on every such form
// (articles, events). Client-safe.
export const PHOTO_NOTES = {
  /** Without JavaScript a refused form comes back without the file chosen. */
  chooseAgain: "Wybierz zdjęcie ponownie – przeglądarka nie zachowuje wybranego pliku.",
  /** A form restored after sign-in carries the photo chosen before. */
  kept: "Zachowane zdjęcie zostanie zapisane, chyba że wybierzesz inne.",
  storageFailed: "Nie udało się zapisać zdjęcia. Spróbuj ponownie.",
} as const;
