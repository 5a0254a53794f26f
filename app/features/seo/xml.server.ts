// XML text of the news feed and the sitemap. Entities rather than CDATA:
// article text is the pastor's and may hold `]]>`, which would end a CDATA
// section.

// Characters XML 1.0 does not allow at all (control characters, lone
// surrogates, U+FFFE/U+FFFF); dropped rather than making the document invalid.
const NOT_XML = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlText(value: string): string {
  return value
    .replace(NOT_XML, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** `<name attributes>value</name>`, the value escaped. */
export function element(name: string, value: string, attributes = ""): string {
  return `<${name}${attributes}>${xmlText(value)}</${name}>`;
}

/** RFC 822 date as RSS 2.0 wants it, e.g. `Sun, 22 Nov 2026 04:02:35 GMT`. */
export function rfc822(date: Date): string {
  return date.toUTCString();
}
