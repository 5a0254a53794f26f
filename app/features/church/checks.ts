// Checks of Polish identifiers a pastor types: bank account (NRB), NIP, REGON,
// postal code and phone numbers. Each returns a Polish message, or null when
// the value is right. Loops over digits, no patterns that could backtrack.
import { parsePhoneNumberFromString } from "libphonenumber-js";

const isDigit = (c: string) => c >= "0" && c <= "9";

/** The characters of `text` without spaces and hyphens (as people group numbers). */
function compact(text: string): string {
  let out = "";
  for (const c of text) if (c !== " " && c !== "-" && c !== "\u00a0") out += c;
  return out;
}

const allDigits = (text: string) => [...text].every(isDigit);

/** The 26 digits of a Polish account number typed with spaces, hyphens or a leading "PL". */
export function nrbDigits(text: string): string {
  const c = compact(text.trim());
  return c.slice(0, 2).toUpperCase() === "PL" ? c.slice(2) : c;
}

/** IBAN mod-97 check of a Polish account number ("PL" is 25 21). */
function nrbChecksumOk(digits: string): boolean {
  return BigInt(`${digits.slice(2)}2521${digits.slice(0, 2)}`) % 97n === 1n;
}

export function checkNrb(text: string): string | null {
  const digits = nrbDigits(text);
  if (digits.length !== 26 || !allDigits(digits))
    return "Numer konta ma 26 cyfr (np. 12 3456 7890 1234 5678 9012 3456).";
  if (!nrbChecksumOk(digits)) return "Numer konta ma błędne cyfry kontrolne – sprawdź, czy nie ma literówki.";
  return null;
}

/** "61 1090 1014 0000 0712 1981 2874": the check digits, then groups of four, as banks print it. */
export function groupNrb(text: string): string {
  const digits = nrbDigits(text);
  const groups = [digits.slice(0, 2)];
  for (let i = 2; i < digits.length; i += 4) groups.push(digits.slice(i, i + 4));
  return groups.join(" ");
}

function weightedSum(digits: string, weights: number[]): number {
  return weights.reduce((sum, w, i) => sum + w * Number(digits[i]), 0);
}

export function checkNip(text: string): string | null {
  const digits = compact(text.trim());
  if (digits.length !== 10 || !allDigits(digits)) return "NIP ma 10 cyfr (np. 123-456-32-18).";
  const rest = weightedSum(digits, [6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11;
  if (rest === 10 || rest !== Number(digits[9]))
    return "NIP ma błędną cyfrę kontrolną – sprawdź, czy nie ma literówki.";
  return null;
}

export function checkRegon(text: string): string | null {
  const digits = compact(text.trim());
  if ((digits.length !== 9 && digits.length !== 14) || !allDigits(digits)) return "REGON ma 9 albo 14 cyfr.";
  const weights = digits.length === 9 ? [8, 9, 2, 3, 4, 5, 6, 7] : [2, 4, 8, 5, 0, 9, 7, 3, 6, 1, 2, 4, 8];
  const check = (weightedSum(digits, weights) % 11) % 10;
  if (check !== Number(digits[digits.length - 1])) {
    return "REGON ma błędną cyfrę kontrolną – sprawdź, czy nie ma literówki.";
  }
  return null;
}

export function checkPostalCode(text: string): string | null {
  const t = text.trim();
  const ok = t.length === 6 && t[2] === "-" && allDigits(t.slice(0, 2)) && allDigits(t.slice(3));
  return ok ? null : "Kod pocztowy ma postać NN-NNN (np. 32-020).";
}

/** A Polish phone number, or null when it is not one. */
function polishPhone(text: string) {
  const parsed = parsePhoneNumberFromString(text.trim(), "PL");
  return parsed && parsed.country === "PL" && parsed.isValid() ? parsed : null;
}

export function checkPhone(text: string): string | null {
  return polishPhone(text)
    ? null
    : `„${text.trim()}” nie jest polskim numerem telefonu (np. 12 345 67 89 albo 601 234 567).`;
}

/** How a phone is shown ("+48 12 345 67 89") and dialled ("tel:+48123456789"); an unchecked one is shown as typed. */
export function phoneView(text: string): { display: string; tel: string } {
  const parsed = polishPhone(text);
  if (!parsed) return { display: text.trim(), tel: `tel:${compact(text.trim())}` };
  return { display: parsed.formatInternational(), tel: `tel:${parsed.number}` };
}

/** An https address of a video channel. */
export function checkHttpsUrl(text: string): string | null {
  try {
    const url = new URL(text.trim());
    return url.protocol === "https:" && url.hostname ? null : "Podaj adres zaczynający się od https://.";
  } catch {
    return "Podaj adres zaczynający się od https://.";
  }
}

/** A pasted Google Maps embed address: only Google's own host is let into the page's frame. */
/** The embed address Google gives under 'Zintegruj kalendarz' (https://calendar.google.com/calendar/embed?src=…). */
export function checkGoogleCalendarUrl(text: string): string | null {
  const message = "Wklej adres kalendarza z Google (https://calendar.google.com/calendar/embed?src=…).";
  try {
    const url = new URL(text.trim());
    const ok =
      url.protocol === "https:" && url.hostname === "calendar.google.com" && url.pathname.startsWith("/calendar/embed");
    return ok ? null : message;
  } catch {
    return message;
  }
}

export function checkMapEmbedUrl(text: string): string | null {
  const message = "Wklej adres mapy z Google Maps (https://www.google.com/maps/embed?…).";
  try {
    const url = new URL(text.trim());
    const ok = url.protocol === "https:" && url.hostname === "www.google.com" && url.pathname.startsWith("/maps");
    return ok ? null : message;
  } catch {
    return message;
  }
}
