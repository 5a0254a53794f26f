// The congregation and its articles as schema.org data (JSON-LD), for the
// public pages that carry it; apart from seo.ts, which every page's meta
// (and so every hydrated page's browser code) needs.
import type { Meeting } from "~/content/church";
import { TIME_ZONE } from "~/content/site";
import type { PublicFacts } from "~/features/church/facts";
import { type SeoImage, absoluteUrl } from "~/features/seo/seo";
import { HOME_PATH, articlePath } from "~/lib/paths";

function postalAddress(address: PublicFacts["address"]) {
  return {
    "@type": "PostalAddress",
    streetAddress: address.street,
    postalCode: address.postalCode,
    addressLocality: address.city,
    addressCountry: "PL",
  };
}

function organization(origin: string, siteName: string) {
  return {
    "@type": "Organization",
    name: siteName,
    url: absoluteUrl(origin, HOME_PATH),
    logo: { "@type": "ImageObject", url: absoluteUrl(origin, "/logo.svg") },
  };
}

/** `HH:MM` as a schema.org Time. */
const time = (hhmm: string) => `${hhmm}:00`;

function meetingEvent(m: Meeting, address: PublicFacts["address"]) {
  return {
    "@type": "Event",
    name: m.name,
    eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
    // Home groups meet in homes: no place to name.
    ...(m.where ? { location: { "@type": "Place", name: m.where, address: postalAddress(address) } } : {}),
    eventSchedule: {
      "@type": "Schedule",
      byDay: m.days.map((d) => `https://schema.org/${d}`),
      startTime: time(m.start),
      ...(m.end ? { endTime: time(m.end) } : {}),
      ...(m.monthWeek
        ? { byMonthWeek: m.monthWeek, repeatFrequency: "P1M" }
        : { repeatFrequency: `P${m.everyWeeks ?? 1}W` }),
      scheduleTimezone: TIME_ZONE,
    },
  };
}

/** The congregation as a schema.org Church, with its recurring meetings (the calendar's events) as scheduled events. */
export function churchJsonLd(origin: string, facts: PublicFacts, meetings: readonly Meeting[]) {
  return {
    "@context": "https://schema.org",
    "@type": "Church",
    "@id": absoluteUrl(origin, "/#zbor"),
    name: facts.name,
    url: absoluteUrl(origin, HOME_PATH),
    logo: absoluteUrl(origin, "/logo.svg"),
    email: facts.email,
    // None while a real site's phones are samples (left out, not an empty list).
    ...(facts.phones.length ? { telephone: facts.phones.map((p) => p.display) } : {}),
    address: postalAddress(facts.address),
    sameAs: [facts.videoChannelUrl],
    event: meetings.map((m) => meetingEvent(m, facts.address)),
  };
}

export interface NewsArticleInput {
  id: string;
  header: string;
  description: string;
  published: string | null;
  image: SeoImage | null;
}

/** An article as a schema.org NewsArticle. */
export function newsArticleJsonLd(origin: string, a: NewsArticleInput, siteName: string) {
  const url = absoluteUrl(origin, articlePath(a.id));
  return {
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    headline: a.header,
    description: a.description,
    url,
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    inLanguage: "pl",
    ...(a.published ? { datePublished: a.published } : {}),
    ...(a.image ? { image: [absoluteUrl(origin, a.image.url)] } : {}),
    author: organization(origin, siteName),
    publisher: organization(origin, siteName),
  };
}
