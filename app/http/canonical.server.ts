/**
 * One address per page: every other spelling of it (letter case, percent-
 * encoded letters, a trailing slash, doubled slashes) is answered 301 to the
 * canonical one before the page cache sees it, so a loop over spellings
 * cannot fill the cache and push out the real pages.
 */

/**
 * The route files in app/routes (a unit test fails when one is added without
 * being listed here): their fixed segments are the words whose letter case
 * is made canonical.
 */
export const ROUTE_FILES = [
  "$.tsx",
  "_index.tsx",
  "akceptuje.tsx",
  "aktualnosci.$id.tsx",
  "aktualnosci._index.tsx",
  "aktualnosci.rss[.]xml.ts",
  "galeria.$slug.tsx",
  "galeria._index.tsx",
  "healthz.ts",
  "healthz_.dependencies.ts",
  "kalendarz._index.tsx",
  "kalendarz.$id.tsx",
  "kalendarz.$id_.$day.tsx",
  "kalendarz[.]ics.ts",
  "kalendarz.google.tsx",
  "kod-przelewu[.]svg.ts",
  "kontakt.tsx",
  "onas._index.tsx",
  "onas.swiadectwa.$id.tsx",
  "pliki.$.ts",
  "polityka-prywatnosci.tsx",
  "readyz.ts",
  "robots[.]txt.ts",
  "sitemap[.]xml.ts",
  "sluzby.tsx",
  "strefapastora._index.tsx",
  "strefapastora.artykuly.$id.tsx",
  "strefapastora.artykuly.$id_.podglad.tsx",
  "strefapastora.artykuly._index.tsx",
  "strefapastora.artykuly.dodaj.tsx",
  "strefapastora.artykuly.dodaj.wyslij.ts",
  "strefapastora.artykuly.edytuj.$id.tsx",
  "strefapastora.artykuly.edytuj.$id.wyslij.ts",
  "strefapastora.dane-zboru.tsx",
  "strefapastora.galeria.$slug.tsx",
  "strefapastora.galeria.$slug_.podglad.tsx",
  "strefapastora.galeria._index.tsx",
  "strefapastora.galeria.dodaj.tsx",
  "strefapastora.galeria.dodaj.zdjecia.ts",
  "strefapastora.galeria.edytuj.$slug.tsx",
  "strefapastora.historia-zmian.tsx",
  "strefapastora.kosz.tsx",
  "strefapastora.logowanie.tsx",
  "strefapastora.sluzby.tsx",
  "strefapastora.swiadectwa._index.tsx",
  "strefapastora.swiadectwa.dodaj.tsx",
  "strefapastora.swiadectwa.edytuj.$id.tsx",
  "strefapastora.tsx",
  "strefapastora.urzadzenia.tsx",
  "strefapastora.weryfikacja-dwuetapowa.tsx",
  "strefapastora.wydarzenia._index.tsx",
  "strefapastora.wydarzenia.dodaj.tsx",
  "strefapastora.wydarzenia.dodaj.wyslij.ts",
  "strefapastora.wydarzenia.edytuj.$id.tsx",
  "strefapastora.wydarzenia.edytuj.$id.wyslij.ts",
  "strefapastora.wydarzenia.edytuj.$id_.termin.$day.tsx",
  "strefapastora.wyloguj.ts",
  "strefapastora.zdjecia-historii.tsx",
];

/** The fixed URL segments of a route file name (`aktualnosci.rss[.]xml.ts` → aktualnosci, rss.xml). */
export function fixedSegments(file: string): string[] {
  const name = file.slice(0, file.lastIndexOf("."));
  return name
    .split(/(?<!\[)\.(?!\])/)
    .map((part) => part.replaceAll("[.]", ".").replace(/_$/, ""))
    .filter((part) => part !== "" && !part.startsWith("$") && !part.startsWith("_"));
}

const FIXED = new Set(ROUTE_FILES.flatMap(fixedSegments));

// Files served as they are named: their case and spelling are left alone.
const UNTOUCHED = new Set(["build", "pliki"]);

const UNRESERVED = /^[A-Za-z0-9._~-]$/;
const HEX_PAIR = /^[\dA-Fa-f]{2}$/;

/** Percent-escapes of unreserved characters decoded (RFC 3986 §6.2.2.2), other escapes in upper case. */
function decodeUnreserved(segment: string): string {
  let out = "";
  for (let i = 0; i < segment.length; i++) {
    const hex = segment.slice(i + 1, i + 3);
    if (segment[i] === "%" && HEX_PAIR.test(hex)) {
      const char = String.fromCharCode(Number.parseInt(hex, 16));
      out += UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
      i += 2;
    } else out += segment[i];
  }
  return out;
}

/**
 * The canonical spelling of a request path, or null when it is already
 * canonical (or is a file address, kept as sent).
 */
export function canonicalPath(path: string): string | null {
  const segments = path.split("/").filter((segment) => segment !== "");
  if (segments.length > 0 && UNTOUCHED.has(segments[0])) return null;
  const canonical =
    "/" +
    segments
      .map(decodeUnreserved)
      .map((segment) => (FIXED.has(segment.toLowerCase()) ? segment.toLowerCase() : segment))
      .join("/");
  return canonical === path ? null : canonical;
}

/** Where a GET or HEAD of a non-canonical address is sent (query kept), or null. */
export function canonicalRedirect(method: string | undefined, url: string | undefined): string | null {
  if (method !== "GET" && method !== "HEAD") return null;
  const raw = url || "/";
  const queryAt = raw.indexOf("?");
  const path = queryAt === -1 ? raw : raw.slice(0, queryAt);
  const canonical = canonicalPath(path);
  if (canonical === null) return null;
  return queryAt === -1 ? canonical : canonical + raw.slice(queryAt);
}
