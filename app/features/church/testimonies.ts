// The testimony form's words and limits. Client-safe: the pastor's pages render these.

export const TESTIMONY_TITLE_MAX = 200;
export const TESTIMONY_AUTHOR_MAX = 200;
export const TESTIMONY_TEXT_MAX = 20_000;

export type TestimonyField = "title" | "text" | "author" | "hidden";

/** Field labels, also the names of what differs in a refused save. */
export const TESTIMONY_LABELS: Record<TestimonyField, string> = {
  title: "Tytuł (np. imię)",
  text: "Treść",
  author: "Podpis (opcjonalnie)",
  hidden: "Ukryte (szkic, niewidoczne na stronie)",
};

/** What differs, as the note over a refused save names it. */
export const TESTIMONY_CHANGE_NAMES: Record<TestimonyField, string> = {
  title: "tytuł",
  text: "treść",
  author: "podpis",
  hidden: "widoczność",
};
