// The bin's words and numbers. Client-safe: the bin page renders these.

/** Days an item stays in the bin before it is deleted for good. */
export const BIN_KEEP_DAYS = 30;

export type BinKind = "article" | "gallery" | "testimony" | "event";

export const BIN_KIND_LABELS: Record<BinKind, string> = {
  article: "artykuł",
  gallery: "galeria",
  testimony: "świadectwo",
  event: "wydarzenie",
};

/** The kind as the object of a sentence: 'usunąć na zawsze galerię'. */
export const BIN_KIND_OBJECTS: Record<BinKind, string> = {
  article: "artykuł",
  gallery: "galerię",
  testimony: "świadectwo",
  event: "wydarzenie",
};

/** The question before 'usuń na zawsze'. */
export const purgeQuestion = (kind: BinKind, title: string) =>
  `Czy na pewno usunąć na zawsze ${BIN_KIND_OBJECTS[kind]} „${title}”? Tego nie można cofnąć.`;

/** 'usunięcie na zawsze za 12 dni'. */
export function purgeIn(days: number): string {
  if (days <= 0) return "zostanie usunięte na zawsze przy najbliższej wizycie";
  return `usunięcie na zawsze za ${days} ${days === 1 ? "dzień" : "dni"}`;
}

/** What the restore form says when an album outside the bin has the title. */
export const titleTakenMessage = (title: string) =>
  `Jest już galeria o tytule „${title}”. Podaj inny tytuł, aby ją przywrócić.`;
