import fs from "node:fs";
import path from "node:path";
import { BROWSER_SCRIPTS_MANIFEST, type BrowserScript } from "~/lib/browser-scripts";

let cached: Partial<Record<BrowserScript, string>> | undefined;

/**
 * The addresses of the built plain scripts (/build/album-editor-HASH.js),
 * read once from the manifest the build writes next to them. Empty when not
 * built (`remix dev`, unit tests): those pages then work as without JavaScript.
 */
export function browserScripts(): Partial<Record<BrowserScript, string>> {
  if (cached) return cached;
  try {
    cached = JSON.parse(fs.readFileSync(path.join(process.cwd(), "public", BROWSER_SCRIPTS_MANIFEST), "utf8"));
  } catch {
    cached = {};
  }
  return cached!;
}
