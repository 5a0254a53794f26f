// What the history of changes records, and how its page words it. Client-safe:
// the page renders these labels, the server stores the action names.

import { ACTIVITY_ACTIONS, type ActivityAction, type ActivitySubject } from "~/lib/activity-kinds";

export { ACTIVITY_ACTIONS, type ActivityAction, type ActivitySubject };

/** One entry as the history page receives it. */
export interface ActivityEntry {
  id: number;
  /** ISO time. */
  at: string;
  /** The e-mail; empty for the site itself. */
  actor: string;
  action: ActivityAction;
  subjectKind: ActivitySubject | null;
  subjectTitle: string;
  address: string | null;
  /** How many refused sign-ins the line stands for (1 for every other entry). */
  count: number;
}

// Impersonal verbs ('dodano', not 'dodał'): the actor stands in a column of its own.
const VERBS: Record<ActivityAction, string> = {
  created: "dodano",
  edited: "zmieniono",
  published: "opublikowano",
  scheduled: "zaplanowano publikację:",
  binned: "przeniesiono do kosza",
  restored: "przywrócono z kosza",
  purged: "usunięto na zawsze",
  signed_in: "zalogowano się",
  sign_in_refused: "odmowa logowania: zbyt wiele nieudanych prób",
};

const NOUNS: Record<ActivitySubject, string> = {
  article: "artykuł",
  gallery: "galerię",
  church: "dane zboru:",
  ministry: "służbę",
  testimony: "świadectwo",
  history_photo: "zdjęcie z historii zboru",
  event: "wydarzenie",
};

/**
 * 'dodano artykuł „Dzień dziecka”', 'zalogowano się (adres 192.0.2.1)',
 * 'odmowa logowania: … (adres 192.0.2.7, 3 razy, wpisano „jan@example.org”)'.
 */
export function activityLabel(
  entry: Pick<ActivityEntry, "action" | "subjectKind" | "subjectTitle" | "address"> & { count?: number },
) {
  const parts = [VERBS[entry.action] ?? entry.action];
  if (entry.subjectKind) parts.push(`${NOUNS[entry.subjectKind]} „${entry.subjectTitle}”`);
  if (entry.action === "sign_in_refused") {
    const count = entry.count ?? 1;
    const details = [
      entry.address ? `adres ${entry.address}` : null,
      count === 1 ? "1 raz" : `${count} razy`,
      entry.subjectTitle ? `wpisano „${entry.subjectTitle}”` : null,
    ];
    parts.push(`(${details.filter(Boolean).join(", ")})`);
  } else if (entry.address) parts.push(`(adres ${entry.address})`);
  return parts.join(" ");
}

/**
 * Who, as the page shows it: the e-mail, the site for what it did by itself,
 * and for a refused sign-in someone not signed in (what they typed is data).
 */
export function actorLabel(entry: Pick<ActivityEntry, "actor" | "action">) {
  if (entry.action === "sign_in_refused") return "niezalogowany gość";
  return entry.actor || "strona (automatycznie)";
}
