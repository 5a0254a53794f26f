// What the pastor is told about articles, in Polish. Client-safe: pages may
// render these, and the server's rules use the same words.
import { HEADER_MAX } from "~/features/articles/limits";
import { PHOTO_NOTES } from "~/lib/photo-notes";

export const ARTICLE_MESSAGES = {
  missing: "Wypełnij wszystkie pola",
  blankEdit: "Tytuł i treść nie mogą być puste!",
  noNewImage: "Jeśli chcesz zmienić zdjęcie, wybierz zdjęcie!",
  badDate: "Podaj poprawną datę.",
  badCharacters: "Tekst zawiera nieprawidłowe znaki. Wpisz go ponownie.",
  headerTooLong: `Nagłówek może mieć najwyżej ${HEADER_MAX} znaków.`,
  textTooLong: "Treść może mieć najwyżej 100 000 znaków.",
  storageFailed: PHOTO_NOTES.storageFailed,
  saveFailed: "Nie udało się zapisać artykułu. Spróbuj ponownie.",
  notFound: "nie ma takiego dokumentu",
  conflict:
    "Ten artykuł został zmieniony w innym oknie lub na innym urządzeniu, odkąd zacząłeś edycję. Nic nie zapisano.",
} as const;

/** The question before an article is deleted, worded as on the original site. */
export function deleteQuestion(header: string): string {
  return `Czy napewno usunąć kartę "${header}"?`;
}

/** How the conflict message names the fields that differ. */
export const CHANGED_FIELD_NAMES: Record<"header" | "text" | "date" | "image" | "publishAt", string> = {
  header: "tytuł",
  text: "treść",
  date: "data",
  image: "zdjęcie",
  publishAt: "data publikacji",
};
