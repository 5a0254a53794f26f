// The pastor's lists as the clean-up after a test reads them: their HTML
// over the test browser's own session (page.request shares its cookies),
// not loaded as pages. A pastor page loaded and hydrated costs the browser
// several times what the answer costs the server, and most tests clean up.
import type { Page } from "@playwright/test";

const ENTITIES: [string, string][] = [
  ["&quot;", '"'],
  ["&#x27;", "'"],
  ["&lt;", "<"],
  ["&gt;", ">"],
  ["&amp;", "&"],
];
const decode = (s: string) => ENTITIES.reduce((text, [entity, char]) => text.replaceAll(entity, char), s);

/** The value of the first ` name="…"` attribute at or after `from` (React writes double quotes). */
export function attrAfter(html: string, from: number, name: string): string | null {
  const at = html.indexOf(` ${name}="`, from);
  if (from < 0 || at < 0) return null;
  const start = at + name.length + 3;
  return decode(html.slice(start, html.indexOf('"', start)));
}

export interface PastorList {
  /** Each `<li>` whose `<h2>` starts with the prefix: its HTML up to the next `<li`. */
  rows: string[];
  csrf: string;
  origin: string;
}

/** A pastor list's rows made by tests, with the form token; null when the browser is not signed in. */
export async function readPastorList(page: Page, path: string, prefix: string): Promise<PastorList | null> {
  const res = await page.request.get(path, { maxRedirects: 0 });
  if (res.status() !== 200) return null; // sent to the sign-in page
  const html = await res.text();
  const rows = html
    .split("<li")
    .slice(1)
    .filter((row) => {
      const heading = row.indexOf("<h2>");
      return heading >= 0 && row.startsWith(prefix, heading + "<h2>".length);
    });
  const csrf = attrAfter(html, html.indexOf(' name="csrf"'), "value");
  if (csrf === null) throw new Error(`no form token on ${path}`);
  return { rows, csrf, origin: new URL(res.url()).origin };
}
