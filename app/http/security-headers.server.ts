import crypto from "node:crypto";
import { EXTERNAL_IMAGE_ORIGINS } from "~/lib/image-variants";
import { config } from "~/services/config.server";

export function createNonce(): string {
  return crypto.randomBytes(16).toString("base64");
}

// The map on / and /kontakt; the calendar is the site's own (no frame), with
// the Google Calendar a congregation may show below it after a click.
const FRAME_SOURCES = ["https://www.google.com", "https://maps.google.com", "https://calendar.google.com"];

function storageOrigin(): string | null {
  const s = config().storage;
  if (s.kind === "s3" && s.publicUrl) return new URL(s.publicUrl).origin;
  return null;
}

const PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()";

/**
 * Headers every response carries, files and redirects included: documents
 * replace the policy with their own (documentSecurityHeaders), anything else
 * may load nothing and be framed nowhere.
 */
export function baseSecurityHeaders(): Record<string, string> {
  return {
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
    "X-Frame-Options": "DENY",
    ...(config().isProduction ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  };
}

/** The policy of an HTML page: scripts run only with this request's nonce. */
export function documentPolicy(nonce?: string): string {
  // Imported photos whose download failed stay on the old site's file host.
  const img = ["'self'", "data:", storageOrigin(), ...EXTERNAL_IMAGE_ORIGINS].filter(Boolean).join(" ");
  return [
    "default-src 'self'",
    `script-src 'self'${nonce ? ` 'nonce-${nonce}'` : ""}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${img}`,
    `frame-src ${FRAME_SOURCES.join(" ")}`,
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Security headers of a page or a data answer of the app. */
export function applySecurityHeaders(headers: Headers, nonce?: string) {
  for (const [name, value] of Object.entries(baseSecurityHeaders())) headers.set(name, value);
  headers.set("Content-Security-Policy", documentPolicy(nonce));
}

/**
 * The executable inline scripts of a page: the text of each `<script>` with
 * no `src` and no data type (JSON-LD runs nothing). Read by scanning, not by
 * a pattern over the page.
 */
export function inlineScripts(html: string): string[] {
  const scripts: string[] = [];
  let at = 0;
  for (;;) {
    const open = html.indexOf("<script", at);
    if (open < 0) return scripts;
    const tagEnd = html.indexOf(">", open);
    const close = tagEnd < 0 ? -1 : html.indexOf("</script", tagEnd);
    if (close < 0) return scripts;
    const tag = html.slice(open, tagEnd);
    if (!tag.includes(" src=") && !tag.includes('type="application/ld+json"')) {
      scripts.push(html.slice(tagEnd + 1, close));
    }
    at = close + "</script".length;
  }
}

/**
 * A page kept for every visitor (the page cache) cannot carry a nonce: one
 * that everyone can read protects nothing. Its policy allows its own inline
 * scripts by their SHA-256 instead, which is the same for every visitor, and
 * the nonce is taken off the page. A policy without a nonce is left as it is.
 */
export function withScriptHashes(html: Buffer, policy: string): { html: Buffer; policy: string } {
  const start = policy.indexOf("'nonce-");
  if (start < 0) return { html, policy };
  const end = policy.indexOf("'", start + 1);
  const nonce = policy.slice(start + "'nonce-".length, end);
  const page = html.toString("utf8").replaceAll(` nonce="${nonce}"`, "");
  const hashes = [...new Set(inlineScripts(page))].map(
    (text) => `'sha256-${crypto.createHash("sha256").update(text, "utf8").digest("base64")}'`,
  );
  const allowed = hashes.join(" ");
  return {
    html: Buffer.from(page, "utf8"),
    policy: policy.slice(0, start) + allowed + policy.slice(end + 1),
  };
}
