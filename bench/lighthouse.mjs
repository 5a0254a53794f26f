// Lighthouse (a dependency of the bench's own package, v12) on one page, with its
// default mobile emulation and simulated throttling, in Debian's Chromium.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runChild } from "./load.mjs";

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.join(BENCH, "node_modules/lighthouse/cli/index.js");

export function lighthouseVersion() {
  return JSON.parse(fs.readFileSync(path.join(BENCH, "node_modules/lighthouse/package.json"), "utf8")).version;
}

/**
 * Runs Lighthouse on `url`, keeping its JSON and HTML reports as
 * `<outBase>.report.json|html`, and returns the figures of the report.
 */
export async function runLighthouse(url, outBase, { chromePath, chromeFlags, track }) {
  const run = await runChild(
    process.execPath,
    [
      CLI,
      url,
      "--output=json",
      "--output=html",
      `--output-path=${outBase}`,
      `--chrome-flags=${chromeFlags.join(" ")}`,
      "--quiet",
    ],
    { track, timeoutMs: 180_000, env: { ...process.env, CHROME_PATH: chromePath } },
  );
  const file = `${outBase}.report.json`;
  if (run.code !== 0 || !fs.existsSync(file)) {
    throw new Error(
      `lighthouse failed (${run.code ?? run.signal}): ${run.stderr.trim().split("\n").slice(-5).join(" | ")}`,
    );
  }
  const lhr = JSON.parse(fs.readFileSync(file, "utf8"));
  const score = (id) => (lhr.categories[id]?.score == null ? null : Math.round(lhr.categories[id].score * 100));
  const audit = (id) => lhr.audits[id]?.numericValue ?? null;
  const requests = lhr.audits["network-requests"]?.details?.items ?? [];
  const scripts = requests.filter((r) => r.resourceType === "Script");
  // Audits that cost points, so a score below 100 comes with its reason.
  const failing = [];
  for (const [id, category] of Object.entries(lhr.categories)) {
    if (category.score === 1) continue;
    for (const ref of category.auditRefs) {
      const a = lhr.audits[ref.id];
      if (ref.weight > 0 && a && a.score !== null && a.score < 1 && a.scoreDisplayMode !== "informative") {
        failing.push(`${id}: ${ref.id}`);
      }
    }
  }
  // What the largest paint was and where its time went, to explain a slow LCP.
  const [element, phases] = lhr.audits["largest-contentful-paint-element"]?.details?.items ?? [];
  const node = element?.items?.[0]?.node;
  // The label is the text of a text node; for an image it only repeats the selector.
  const label = node?.nodeLabel?.replace(/\s+/g, " ").trim();
  const isText = label && !(node.selector ?? "").startsWith(label.replace(/…$/, ""));
  const lcp = {
    element: node ? `${node.selector ?? node.snippet}${isText ? ` „${label.slice(0, 40)}”` : ""}` : null,
    phases: Object.fromEntries((phases?.items ?? []).map((p) => [p.phase, Math.round(p.timing)])),
  };
  return {
    lcp,
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    lcpMs: audit("largest-contentful-paint"),
    fcpMs: audit("first-contentful-paint"),
    tbtMs: audit("total-blocking-time"),
    cls: audit("cumulative-layout-shift"),
    totalBytes: audit("total-byte-weight"),
    scriptFiles: scripts.length,
    scriptTransferBytes: scripts.reduce((a, r) => a + (r.transferSize ?? 0), 0),
    runtimeError: lhr.runtimeError?.message ?? null,
    warnings: lhr.runWarnings ?? [],
    failing,
  };
}
