import fs from "node:fs";
import path from "node:path";

const cache = new Map<string, string | null>();

/**
 * A built stylesheet's text (each about 3 KB compressed), read once, to be
 * inlined in the page: the first screen then waits on no second request.
 * `href` is an address the build gave an imported .css file, never request
 * data. Null where the file is not built (tests): pages link it instead.
 */
export function stylesheetText(href: string): string | null {
  const known = cache.get(href);
  if (known !== undefined) return known;
  let text: string | null = null;
  if (href.startsWith("/build/") && href.endsWith(".css")) {
    try {
      text = fs.readFileSync(path.join(process.cwd(), "public", href), "utf8");
    } catch {
      // Not built: the page links it.
    }
  }
  cache.set(href, text);
  return text;
}
