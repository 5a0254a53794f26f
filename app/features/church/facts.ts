// The congregation's facts as pages and the pastor's form see them. Client-safe:
// components render these labels; the checks and the database live in
// facts.server.ts.

/** Every fact, as stored (one JSON object) and as the form names its fields. */
export interface ChurchFacts {
  name: string;
  headerLine1: string;
  headerLine2: string;
  footerName: string;
  street: string;
  postalCode: string;
  city: string;
  mapEmbedUrl: string;
  email: string;
  phones: string[];
  nip: string;
  regon: string;
  videoChannelUrl: string;
  /** An embed address of the congregation's Google Calendar, shown on /kalendarz only after a click; empty: none. */
  googleCalendarUrl: string;
  bankName: string;
  holder: string;
  account: string;
  transferTitle: string;
  qrRecipient: string;
  qrTitle: string;
  verseText: string;
  verseReference: string;
  welcome: string[];
  history: string[];
  creed: string[];
}

export type FactField = keyof ChurchFacts;

/** The form's Polish labels, in the order of the form. */
export const FACT_LABELS: Record<FactField, string> = {
  name: "Nazwa zboru",
  headerLine1: "Nagłówek – pierwsza linia",
  headerLine2: "Nagłówek – druga linia",
  footerName: "Nazwa w stopce",
  street: "Ulica i numer",
  postalCode: "Kod pocztowy",
  city: "Miejscowość",
  mapEmbedUrl: "Adres mapy Google (opcjonalnie)",
  email: "Adres e-mail",
  phones: "Telefony",
  nip: "NIP",
  regon: "REGON",
  videoChannelUrl: "Kanał wideo",
  googleCalendarUrl: "Kalendarz Google (opcjonalnie)",
  bankName: "Nazwa banku",
  holder: "Odbiorca",
  account: "Numer konta",
  transferTitle: "Tytuł przelewu",
  qrRecipient: "Odbiorca w kodzie QR",
  qrTitle: "Tytuł w kodzie QR",
  verseText: "Werset",
  verseReference: "Miejsce w Biblii",
  welcome: "Powitanie",
  history: "Historia",
  creed: "Wyznanie wiary",
};

export const FACT_FIELDS = Object.keys(FACT_LABELS) as FactField[];

/** The short forms the banks' QR code can hold (ZBP standard), counted in characters. */
export const QR_RECIPIENT_MAX = 20;
export const QR_TITLE_MAX = 32;

/** What a visitor sees of the giving block: left out while its facts are samples on a real site. */
export interface PublicBank {
  bankName: string;
  holder: string;
  account: string;
  transferTitle: string;
}

/** The facts as public pages render them: phones ready to show and dial, sample facts of a real site left out. */
export interface PublicFacts {
  name: string;
  headerLine1: string;
  headerLine2: string;
  footerName: string;
  address: { street: string; postalCode: string; city: string };
  mapEmbedUrl: string;
  email: string;
  phones: { display: string; tel: string }[];
  nip: string | null;
  regon: string | null;
  videoChannelUrl: string;
  googleCalendarUrl: string;
  bank: PublicBank | null;
  verse: { text: string; reference: string };
  welcome: string[];
  history: string[];
  creed: string[];
}

/** What the layout (header and footer) needs; the root loader passes it. */
export interface SiteNames {
  name: string;
  headerLine1: string;
  headerLine2: string;
  footerName: string;
}
