import { dateFormat } from "~/lib/text";
// What pages show of an item's publication state. No server imports: the
// pastor's lists and the preview bar render these.

export type PublicationState = "draft" | "scheduled" | "published";

/** An item's publication: its state, and the moment as an ISO string (null for a draft). */
export interface Publication {
  state: PublicationState;
  at: string | null;
}

export const PUBLISH_AT_MESSAGES = {
  invalid: "Podaj poprawną datę i godzinę publikacji (dzień, miesiąc, rok, godzina i minuta).",
} as const;

/** The label of the publish date-time field and its note; one wording for articles and albums. */
export const PUBLISH_AT_LABEL = "Data i godzina publikacji";
export const PUBLISH_AT_NOTE = "Czas polski. Puste pole: publikacja od razu po naciśnięciu przycisku.";
export const SAVE_DRAFT_LABEL = "zapisz jako szkic";
export const PREVIEW_NOTE = "Podgląd — tak zobaczą tę stronę odwiedzający";

/** 'szkic', 'zaplanowany na 24.11.2026, 18:00' (Warsaw time) or 'opublikowany'. */
export function publicationLabel(p: Publication, timeZone = "Europe/Warsaw"): string {
  if (p.state === "draft" || p.at === null) return "szkic";
  if (p.state === "published") return "opublikowany";
  const at = dateFormat("pl-PL", {
    timeZone,
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  }).format(new Date(p.at));
  return `zaplanowany na ${at}`;
}
