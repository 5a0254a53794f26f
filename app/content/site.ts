/**
 * What the layout and every page's meta need in the browser: the time zone,
 * the menu and the names shown before the root loader ran. Kept apart from
 * app/content/church.ts (sample facts, privacy texts) because the browser
 * build splits by file: a pastor page would otherwise load them all.
 */
import type { SiteNames } from "~/features/church/facts";
import {
  ABOUT_PATH,
  CALENDAR_PATH,
  CONTACT_PATH,
  GALLERIES_PATH,
  HOME_PATH,
  MINISTRIES_PATH,
  NEWS_PATH,
} from "~/lib/paths";

export const TIME_ZONE = "Europe/Warsaw";

export const navigation = [
  { to: HOME_PATH, label: "Strona główna" },
  { to: ABOUT_PATH, label: "O nas" },
  { to: NEWS_PATH, label: "Aktualności" },
  { to: GALLERIES_PATH, label: "Galeria" },
  { to: MINISTRIES_PATH, label: "Służby" },
  { to: CALENDAR_PATH, label: "Kalendarz" },
  { to: CONTACT_PATH, label: "Kontakt" },
] as const;

/** A new site's sample names (the rest of the samples: sampleFacts). */
export const sampleSiteNames: SiteNames = {
  name: "Kościół Zielonoświątkowy w Wieliczce",
  headerLine1: "Kościół zielonoświątkowy",
  headerLine2: "Zbór w Wieliczce",
  footerName: "Kościół Zielonoświątkowy Zbór w Wieliczce",
};
