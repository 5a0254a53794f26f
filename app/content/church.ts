/**
 * What is fixed about the site (navigation, the privacy policy's legal frame,
 * the time zone) and a new site's sample data. The congregation's own facts
 * live in the database and are edited in the pastor area.
 */
import type { ChurchFacts, SiteNames } from "~/features/church/facts";
import { TIME_ZONE, sampleSiteNames } from "~/content/site";

export { navigation } from "~/content/site";

export type Weekday = "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday" | "Sunday";

/**
 * A weekly meeting: the days, start and end (`HH:MM`, Warsaw time) are the
 * one source of its times; `when` is the text shown, made from them.
 */
export interface Meeting {
  name: string;
  days: readonly Weekday[];
  start: string;
  end?: string;
  where?: string;
  when: string;
  /** Every how many weeks (weekly meetings; 1 when absent). */
  everyWeeks?: number;
  /** A monthly meeting on the Nth of its day in the month (-1: the last). */
  monthWeek?: number;
}

const WEEKDAY_PL: Record<Weekday, string> = {
  Monday: "poniedziałek",
  Tuesday: "wtorek",
  Wednesday: "środa",
  Thursday: "czwartek",
  Friday: "piątek",
  Saturday: "sobota",
  Sunday: "niedziela",
};

// "pierwsza niedziela miesiąca": the ordinal agrees with the day's gender.
const ORDINAL_PL: Record<number, [string, string]> = {
  1: ["pierwszy", "pierwsza"],
  2: ["drugi", "druga"],
  3: ["trzeci", "trzecia"],
  4: ["czwarty", "czwarta"],
  5: ["piąty", "piąta"],
  [-1]: ["ostatni", "ostatnia"],
};
const FEMININE: ReadonlySet<Weekday> = new Set(["Wednesday", "Saturday", "Sunday"]);

/** The time of a meeting as shown on the page, e.g. "wtorek i piątek, godz. 19:00". */
export function meetingTime(m: Pick<Meeting, "days" | "start" | "end" | "everyWeeks" | "monthWeek">): string {
  const hours = `godz. ${m.start}${m.end ? `–${m.end}` : ""}`;
  if (m.monthWeek !== undefined && m.days.length) {
    const ordinal = ORDINAL_PL[m.monthWeek]?.[FEMININE.has(m.days[0]) ? 1 : 0] ?? `${m.monthWeek}.`;
    return `${ordinal} ${WEEKDAY_PL[m.days[0]]} miesiąca, ${hours}`;
  }
  const names = m.days.map((d) => WEEKDAY_PL[d]);
  const days = names.length > 1 ? `${names.slice(0, -1).join(", ")} i ${names[names.length - 1]}` : names[0];
  const n = m.everyWeeks ?? 1;
  const weeks = n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? "tygodnie" : "tygodni";
  const every = n > 1 ? `co ${n} ${weeks}: ` : "";
  return `${every}${days}, ${hours}`;
}

export const meeting = (m: Omit<Meeting, "when">): Meeting => ({ ...m, when: meetingTime(m) });

export const church = {
  timeZone: TIME_ZONE,

  // A new site's sample events (app/features/events/samples.server.ts): the
  // page text and the structured data come from the events, these seed them.
  meetings: [
    meeting({
      name: "Nabożeństwo niedzielne",
      days: ["Sunday"],
      start: "10:00",
      where: "Kampus Wieliczka, skrzydło E",
    }),
    meeting({
      name: "Spotkania młodzieżowe",
      days: ["Saturday"],
      start: "17:00",
      end: "20:00",
      where: "Kampus Wieliczka",
    }),
    meeting({ name: "Grupy domowe", days: ["Tuesday", "Friday"], start: "19:00" }),
  ],
} as const;

/**
 * A new site's sample facts: shown until the pastor enters the
 * congregation's own in /strefapastora/dane-zboru (every field here counts
 * as a sample until then). The database holds the real ones.
 */
export const sampleFacts: ChurchFacts = {
  ...sampleSiteNames,
  street: "ul. Marszałka Józefa Piłsudskiego 105",
  postalCode: "32-020",
  city: "Wieliczka",
  // Empty: the map follows the address.
  mapEmbedUrl: "",
  // Empty: /kalendarz shows only the site's own calendar.
  googleCalendarUrl: "",
  email: "kontakt@example.org",
  phones: ["+48 000 000 000", "+48 000 000 001"],
  nip: "000-000-00-00",
  regon: "000000000",
  bankName: "Nazwa banku",
  holder: "Kościół Zielonoświątkowy Zbór w Wieliczce",
  // Check digits valid (the payment QR code checks them); no bank has number 0000 0000.
  account: "04 0000 0000 0000 0000 0000 0000",
  // The banks' QR code holds at most 20 characters of recipient and 32 of
  // title; the full title has 35.
  transferTitle: "darowizna na cele kultu religijnego",
  qrRecipient: "KZ Zbór w Wieliczce",
  qrTitle: "darowizna na cele kultu relig.",
  videoChannelUrl: "https://www.youtube.com/",
  verseText:
    "Znam uczynki twoje; oto sprawiłem, że przed tobą otwarte drzwi, których nikt nie może zamknąć, bo choć małą masz moc, jednak zachowałeś moje słowo i nie zaparłeś się imienia mego.",
  verseReference: "Objawienie Jana 3:8",
  welcome: [
    "Cieszymy się, że tu jesteś! Jesteśmy wspólnotą ludzi, którzy poznali Jezusa Chrystusa i chcą żyć według Bożego Słowa.",
    "Zapraszamy na nasze nabożeństwa i spotkania – każdy jest u nas mile widziany, niezależnie od tego, skąd przychodzi.",
  ],

  history: [
    "Nasza wspólnota powstała na przełomie 2011 i 2012 roku jako placówka zboru baptystycznego. Od pierwszych spotkań w domach gromadzili się w niej ludzie, którym zależało na modlitwie, studiowaniu Biblii i dzieleniu się wiarą z mieszkańcami Wieliczki.",
    "Z czasem wspólnota rozrosła się i usamodzielniła. 4 października 2022 roku została zarejestrowana jako zbór Kościoła Zielonoświątkowego w Rzeczypospolitej Polskiej.",
  ],

  creed: [
    "Wierzymy, że Pismo Święte Starego i Nowego Testamentu jest natchnionym Słowem Bożym, nieomylnym i ostatecznym autorytetem w sprawach wiary i życia.",
    "Wierzymy w jednego Boga, wiecznie istniejącego w trzech osobach: Ojca, Syna i Ducha Świętego.",
    "Wierzymy w bóstwo Jezusa Chrystusa, Jego narodzenie z dziewicy, bezgrzeszne życie, cuda, zastępczą i przebłagalną śmierć, cielesne zmartwychwstanie i wniebowstąpienie.",
    "Wierzymy, że zbawienie jest darem łaski Bożej, otrzymywanym przez wiarę w Jezusa Chrystusa, a nie z uczynków.",
    "Wierzymy w chrzest wodny przez zanurzenie osób wierzących oraz w Wieczerzę Pańską sprawowaną na pamiątkę śmierci Chrystusa.",
    "Wierzymy w chrzest w Duchu Świętym jako obietnicę dla wszystkich wierzących oraz w działanie darów Ducha Świętego w Kościele.",
    "Wierzymy w uświęcenie życia wierzącego przez działanie Ducha Świętego i posłuszeństwo Słowu Bożemu.",
    "Wierzymy w powtórne przyjście Jezusa Chrystusa, zmartwychwstanie umarłych i sąd ostateczny oraz w życie wieczne.",
  ],
};

/** A new site's sample testimonies; their ids are the addresses /onas/swiadectwa/{id}. */
export const sampleTestimonies: { id: number; title: string; text: string }[] = [
  {
    id: 1,
    title: "Anna",
    text: "Przez wiele lat szukałam sensu w pracy i w ludziach. Kiedy pierwszy raz przyszłam na nabożeństwo, poczułam pokój, którego wcześniej nie znałam. Dziś wiem, że Jezus jest odpowiedzią na moje pytania.\n\nBóg przemienił moje relacje z bliskimi. Nauczyłam się przebaczać i prosić o przebaczenie.",
  },
  {
    id: 2,
    title: "Marek",
    text: "Wychowałem się w wierzącej rodzinie, ale wiara była dla mnie tylko tradycją. Na obozie młodzieżowym zrozumiałem, że Bóg chce mieć ze mną osobistą relację.\n\nOd tamtej pory codziennie czytam Biblię, a służba w zespole uwielbienia jest dla mnie radością.",
  },
  {
    id: 3,
    title: "Katarzyna",
    text: "Gdy zachorowałam, zbór otoczył mnie modlitwą i praktyczną pomocą. Doświadczyłam Bożej troski przez ludzi, którzy jeszcze niedawno byli dla mnie obcy.\n\nJestem wdzięczna Bogu za uzdrowienie i za wspólnotę, w której mogę wzrastać.",
  },
  {
    id: 4,
    title: "Piotr",
    text: "Byłem uzależniony i straciłem nadzieję na zmianę. Przyjaciel zaprosił mnie do grupy domowej. Tam usłyszałem, że Bóg kocha mnie takim, jakim jestem.\n\nJezus uwolnił mnie od nałogu. Dziś sam pomagam innym, którzy zmagają się z podobnymi problemami.",
  },
  {
    id: 5,
    title: "Ewa",
    text: "Przeprowadziłam się do Wieliczki i nikogo tu nie znałam. W zborze znalazłam przyjaciół i miejsce, w którym mogę służyć dzieciom w szkółce niedzielnej.\n\nBóg prowadzi mnie krok po kroku i wiem, że jestem tu, gdzie powinnam być.",
  },
];

/** A new site's sample ministries, in the order of /sluzby. */
export const sampleMinistries: { name: string; people: string[]; description: string }[] = [
  { name: "Pastor", people: ["Jan Kowalski"], description: "" },
  { name: "Starsi zboru", people: ["Adam Nowak", "Paweł Wiśniewski"], description: "" },
  { name: "Głos doradczy w radzie starszych", people: ["Tomasz Wójcik"], description: "" },
  {
    name: "Służba uwielbienia",
    people: ["Marta Kamińska", "Łukasz Lewandowski", "Joanna Zielińska"],
    description: "",
  },
  { name: "Szkółka niedzielna dla dzieci", people: ["Ewa Szymańska", "Agnieszka Woźniak"], description: "" },
  { name: "Grupy młodzieżowe", people: ["Michał Dąbrowski", "Kinga Kozłowska"], description: "" },
  {
    name: "Grupy domowe",
    people: ["Jan Kowalski", "Adam Nowak", "Paweł Wiśniewski", "Tomasz Wójcik"],
    description: "",
  },
  { name: "Służba techniczna", people: ["Krzysztof Jankowski", "Bartosz Mazur"], description: "" },
  { name: "Skarbnik", people: ["Barbara Krawczyk"], description: "" },
];

/** The privacy policy: a fixed legal frame naming the congregation by the name entered in 'Dane zboru'. */
export const privacyPolicy = ({ name }: Pick<SiteNames, "name">) => ({
  heading: "POLITYKA PRYWATNOŚCI RODO",
  sections: [
    {
      title: "Administrator danych",
      text: `Administratorem Twoich danych osobowych jest pastor zboru „${name}”.`,
    },
    {
      title: "Cel przetwarzania",
      text: "Dane osobowe przetwarzamy wyłącznie w celu informowania o działalności zboru.",
    },
    {
      title: "Twoje prawa",
      text: "Masz prawo dostępu do swoich danych, ich sprostowania, usunięcia, ograniczenia przetwarzania, przenoszenia danych, cofnięcia zgody w dowolnym momencie oraz wniesienia skargi do organu nadzorczego (Prezesa Urzędu Ochrony Danych Osobowych).",
    },
    {
      title: "Profilowanie",
      text: "Twoje dane nie będą przetwarzane w sposób zautomatyzowany ani profilowane.",
    },
    {
      title: "Udostępnianie danych",
      text: "Twoje dane nie będą udostępniane innym podmiotom bez Twojej zgody.",
    },
    {
      title: "Okres przechowywania",
      text: "Dane przechowujemy do czasu realizacji celu, w którym zostały zebrane, lub przez rok od początku roku następującego po roku wyrażenia zgody – w zależności od tego, który z tych okresów jest dłuższy.",
    },
  ],
});

export const cookieNotice = {
  heading: "Polityka prywatności",
  text: "Klikając „Akceptuję”, zgadzasz się na wykorzystanie plików cookie zgodnie z naszą Polityką prywatności.",
  accept: "Akceptuję",
} as const;
