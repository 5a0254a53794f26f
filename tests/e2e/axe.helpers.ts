// axe-core run in a page as the accessibility tests run it.
import fs from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";

// WCAG 2.1 A and AA, plus axe's best practices (landmarks, one h1, ...).
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/**
 * axe-core's script (the minified build of the axe-core that
 * @axe-core/playwright depends on, so the same version and rules). Injected
 * once per document and run directly: AxeBuilder injects it again at every
 * run and finishes each run in a new blank page, a second or so each, and
 * this file runs axe some 170 times (every page at two widths, twice).
 */
const AXE_SOURCE = fs.readFileSync(
  createRequire(createRequire(import.meta.url).resolve("@axe-core/playwright")).resolve("axe-core/axe.min.js"),
  "utf8",
);

interface Violation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Serious and critical violations on the page, one line each. */
export async function axe(page: Page) {
  const injected = await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === "function");
  if (!injected) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run: (...a: unknown[]) => Promise<{ violations: Violation[] }> } }).axe
        // The map and calendar frames belong to Google (answered empty in tests).
        .run({ exclude: [["iframe"]] }, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] })
        .then((results) => results.violations),
    TAGS,
  );
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} – ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
