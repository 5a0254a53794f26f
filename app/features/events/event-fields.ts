// The event form's words, limits and values as typed. Client-safe: the
// pastor's pages render these.
import type { DayCode } from "~/features/events/recurrence";
import { PHOTO_NOTES } from "~/lib/photo-notes";
import { dateFormat } from "~/lib/text";

export const EVENT_TITLE_MAX = 200;
export const EVENT_PLACE_MAX = 300;
export const EVENT_DESCRIPTION_MAX = 20_000;
export const EVENT_INTERVAL_MAX = 52;
export const EVENT_COUNT_MAX = 500;

/** The form's values exactly as typed (a checkbox is a boolean), so a refused form shows them again. */
export interface EventFormValues {
  title: string;
  startDate: string;
  startTime: string;
  endDate: string;
  endTime: string;
  allDay: boolean;
  place: string;
  description: string;
  /** "none", "weekly" or "monthly". */
  repeat: string;
  interval: string;
  /** Weekly: the days ticked. */
  days: DayCode[];
  /** Monthly: which one in the month ("1" … "4", "-1" the last) and of which day. */
  monthWeek: string;
  monthDay: string;
  /** "never", "until" or "count". */
  ends: string;
  untilDate: string;
  count: string;
  publishAt: string;
  /** Edit: 'usuń zdjęcie' ticked. (A chosen file is never typed back: a browser cannot refill a file input.) */
  removeImage: boolean;
}

export type EventField =
  | "title"
  | "startDate"
  | "startTime"
  | "end"
  | "place"
  | "description"
  | "repeat"
  | "interval"
  | "days"
  | "monthWeek"
  | "ends"
  | "untilDate"
  | "count"
  | "publishAt"
  | "image";

export type EventErrors = Partial<Record<EventField, string>>;

export const EMPTY_EVENT_FORM: EventFormValues = {
  title: "",
  startDate: "",
  startTime: "",
  endDate: "",
  endTime: "",
  allDay: false,
  place: "",
  description: "",
  repeat: "none",
  interval: "1",
  days: [],
  monthWeek: "1",
  monthDay: "SU",
  ends: "never",
  untilDate: "",
  count: "",
  publishAt: "",
  removeImage: false,
};

export const EVENT_LABELS = {
  title: "Tytuł",
  startDate: "Początek: dzień",
  startTime: "Początek: godzina",
  endDate: "Koniec: dzień",
  endTime: "Koniec: godzina",
  allDay: "Cały dzień (bez godziny)",
  place: "Miejsce",
  description: "Opis",
  repeat: "Powtarzanie",
  interval: "Co ile tygodni lub miesięcy",
  days: "W dni",
  monthWeek: "Który w miesiącu",
  monthDay: "Dzień tygodnia",
  ends: "Do kiedy",
  untilDate: "do dnia (włącznie)",
  count: "liczba powtórzeń",
  // As the article form names its photo.
  image: "Zdjęcie",
  newImage: "Nowe zdjęcie",
  currentImage: "Obecne zdjęcie",
  removeImage: "usuń zdjęcie",
} as const;

export const REPEAT_LABELS: Record<"none" | "weekly" | "monthly", string> = {
  none: "nie powtarza się",
  weekly: "co tydzień (lub co kilka tygodni) w wybrane dni",
  monthly: "co miesiąc w wybrany dzień, np. w pierwszą niedzielę",
};

export const ENDS_LABELS: Record<"never" | "until" | "count", string> = {
  never: "bez końca",
  until: "do dnia",
  count: "określoną liczbę razy",
};

/** Day names as the form's checkboxes show them, Monday first. */
export const DAY_LABELS: Record<DayCode, string> = {
  MO: "poniedziałek",
  TU: "wtorek",
  WE: "środa",
  TH: "czwartek",
  FR: "piątek",
  SA: "sobota",
  SU: "niedziela",
};

/** "the first Sunday": the ordinal agrees with the day's gender. */
export const MONTH_WEEK_LABELS: Record<string, string> = {
  "1": "pierwszy / pierwsza",
  "2": "drugi / druga",
  "3": "trzeci / trzecia",
  "4": "czwarty / czwarta",
  "-1": "ostatni / ostatnia",
};

/** What differs in a refused save, named as the note over it names it. */
export const EVENT_CHANGE_NAMES = {
  title: "tytuł",
  start: "początek",
  end: "koniec",
  place: "miejsce",
  description: "opis",
  repeat: "powtarzanie",
  publishAt: "publikacja",
  image: "zdjęcie",
} as const;

export const EVENT_MESSAGES = {
  fix: "Popraw zaznaczone pola – nic nie zostało zapisane.",
  gone: "Tego wydarzenia już nie ma (mogło trafić do kosza).",
  conflict:
    "Ktoś zapisał to wydarzenie w innej karcie lub na innym urządzeniu, zanim zapisano Twoje zmiany. Nic nie zostało nadpisane.",
} as const;

export const EVENT_PHOTO_MESSAGES = {
  ...PHOTO_NOTES,
  both: "Wybierz nowe zdjęcie albo zaznacz „usuń zdjęcie” – nie oba naraz.",
} as const;

const FEMININE_DAYS = new Set(["WE", "SA", "SU"]);
const ORDINALS: Record<string, [string, string]> = {
  "1": ["pierwszy", "pierwsza"],
  "2": ["drugi", "druga"],
  "3": ["trzeci", "trzecia"],
  "4": ["czwarty", "czwarta"],
  "-1": ["ostatni", "ostatnia"],
};

/** Options of the 'który w miesiącu' select, neutral as to the day's gender. */
export const MONTH_WEEK_OPTIONS: [string, string][] = [
  ["1", "1. w miesiącu"],
  ["2", "2. w miesiącu"],
  ["3", "3. w miesiącu"],
  ["4", "4. w miesiącu"],
  ["-1", "ostatni w miesiącu"],
];

/** 2–4 (not 12–14) take the first plural, the rest the second: 'co 3 tygodnie', 'co 5 tygodni'. */
function plural(n: number, few: string, many: string) {
  const ten = n % 10;
  const hundred = n % 100;
  return ten >= 2 && ten <= 4 && (hundred < 12 || hundred > 14) ? few : many;
}

/** What a stored rule is, in words: 'co 2 tygodnie: wtorek, piątek; do 2027-06-30'. */
export function repeatSummary(e: {
  repeat: string;
  interval: number;
  weekdays: string[];
  monthWeek: number | null;
  untilDate: string | null;
  count: number | null;
}): string {
  if (e.repeat === "none") return REPEAT_LABELS.none;
  const days = e.weekdays.map((d) => DAY_LABELS[d as DayCode] ?? d);
  let text: string;
  if (e.repeat === "weekly") {
    const every = e.interval === 1 ? "co tydzień" : `co ${e.interval} ${plural(e.interval, "tygodnie", "tygodni")}`;
    text = `${every}: ${days.join(", ")}`;
  } else {
    const every = e.interval === 1 ? "co miesiąc" : `co ${e.interval} ${plural(e.interval, "miesiące", "miesięcy")}`;
    const ordinal = ORDINALS[String(e.monthWeek)]?.[FEMININE_DAYS.has(e.weekdays[0]) ? 1 : 0] ?? "";
    text = `${every}: ${ordinal} ${days[0] ?? ""} miesiąca`;
  }
  if (e.untilDate) return `${text}; do ${e.untilDate}`;
  if (e.count) return `${text}; ${e.count} ${e.count === 1 ? "raz" : "razy"}`;
  return text;
}

/** 'wtorek, 12 stycznia 2027, 18:30' or '… (cały dzień)'. */
export function dayAndTime(date: string, time: string | null): string {
  const label = dateFormat("pl-PL", {
    timeZone: "UTC",
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
  }).format(new Date(`${date}T00:00:00Z`));
  return time ? `${label}, ${time}` : `${label} (cały dzień)`;
}
