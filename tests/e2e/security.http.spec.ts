import { createHash } from "node:crypto";
import { expect, test } from "./fixtures";

const DOCUMENTS = [
  "/",
  "/onas",
  "/aktualnosci",
  "/aktualnosci/1735000000000",
  "/galeria",
  "/kontakt",
  "/kalendarz",
  "/strefapastora/logowanie",
];
const OTHER = [
  "/favicon.ico",
  "/logo.svg",
  "/kod-przelewu.svg",
  "/healthz",
  "/readyz",
  "/healthz/dependencies",
  "/aktualnosci.data",
  "/strefapastora/artykuly.data",
  "/nie-ma-takiej-strony",
  "/strefapastora/artykuly",
  "/pliki/nie/ma.jpg",
  "/aktualnosci/%E0%A4%A",
];

function expectBaseline(headers: Record<string, string>, path: string) {
  expect(headers["x-content-type-options"], path).toBe("nosniff");
  expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
  expect(headers["permissions-policy"], path).toContain("camera=()");
  const csp = headers["content-security-policy"];
  expect(csp, path).toBeTruthy();
  expect(csp, path).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy-report-only"], path).toBeUndefined();
}

/** The text of every executable inline script (no src, no JSON-LD data block). */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([^<]*(?:<(?!\/script)[^<]*)*)<\/script>/g)]
    .filter((m) => !m[1].includes(" src=") && !m[1].includes("application/ld+json"))
    .map((m) => m[2]);
}

test("documents: an enforced policy that allows exactly the page's own scripts", async ({ request }) => {
  for (const path of DOCUMENTS) {
    // The second view of a public page comes from the page cache.
    for (const view of [1, 2]) {
      const res = await request.get(path);
      const headers = res.headers();
      expectBaseline(headers, path);
      const csp = headers["content-security-policy"];
      for (const directive of ["default-src 'self'", "object-src 'none'", "base-uri 'self'", "form-action 'self'"]) {
        expect(csp, path).toContain(directive);
      }
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      const frames = csp.match(/frame-src ([^;]+)/)?.[1] ?? "";
      expect(
        // Only Google's map and calendar frames.
        frames.split(" ").every((src) => /^https:\/\/(www|maps|calendar)\.google\.com$/.test(src)),
        frames,
      ).toBe(true);
      const html = await res.text();
      const tags = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(tags.length, path).toBeGreaterThan(0);
      const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
      if (path.startsWith("/strefapastora")) {
        // Rendered for this request only: a nonce of its own on every script.
        expect(nonce, path).toBeTruthy();
        for (const tag of tags) expect(tag, path).toContain(`nonce="${nonce}"`);
      } else if (view === 2) {
        // Kept for every visitor: no nonce anyone could read, each inline script by its hash.
        expect(nonce, path).toBeUndefined();
        for (const tag of tags) expect(tag, path).not.toContain("nonce=");
        const scripts = inlineScripts(html);
        expect(scripts.length, path).toBeGreaterThan(0);
        for (const text of scripts) {
          expect(csp, path).toContain(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
        }
      }
    }
  }
});

test("files, data, redirects and errors carry the same protection", async ({ request }) => {
  for (const path of OTHER) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBeLessThan(500);
    expectBaseline(res.headers(), path);
    expect(res.headers()["x-request-id"], path).toBeTruthy();
  }
});

test("stored photos are served as images only", async ({ request }) => {
  const html = await (await request.get("/galeria")).text();
  const src = html.match(/src="(\/pliki\/[^"]+)"/)![1];
  const res = await request.get(src);
  expect(res.headers()["content-type"]).toMatch(/^image\/(webp|jpeg)$/);
  expect(res.headers()["x-content-type-options"]).toBe("nosniff");
  // Nothing outside the upload folder is reachable.
  for (const path of ["/pliki/../package.json", "/pliki/%2e%2e/%2e%2e/package.json", "/pliki/..%2F..%2Fpackage.json"]) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect([302, 404], path).toContain(res.status());
    expect(await res.text(), path).not.toContain("zbor-wieliczka");
  }
});
