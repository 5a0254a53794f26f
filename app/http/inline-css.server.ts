import fs from "node:fs";
import path from "node:path";
import styles from "~/styles/app.css";

let cached: string | null | undefined;

/**
 * The built site stylesheet (small: about 2 KB compressed), read once, to be
 * inlined on public pages: the first screen then needs no second request.
 */
export function siteCss(): string | null {
  if (cached !== undefined) return cached;
  try {
    cached = fs.readFileSync(path.join(process.cwd(), "public", styles), "utf8");
  } catch {
    cached = null; // not built (tests): pages link the file instead
  }
  return cached;
}
