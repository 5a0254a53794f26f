import crypto from "node:crypto";
import { config } from "~/services/config.server";
import { EXTERNAL_IMAGE_ORIGINS } from "~/lib/image-variants";

export function createNonce(): string {
  return crypto.randomBytes(16).toString("base64");
}

const FRAME_SOURCES = ["https://www.google.com", "https://maps.google.com", "https://calendar.google.com"];

function storageOrigin(): string | null {
  const s = config().storage;
  if (s.kind === "s3" && s.publicUrl) return new URL(s.publicUrl).origin;
  return null;
}

/** Security headers for every response; scripts run only with this request's nonce. */
export function applySecurityHeaders(headers: Headers, nonce?: string) {
  // Imported photos whose download failed stay on the old site's file host.
  const img = ["'self'", "data:", storageOrigin(), ...EXTERNAL_IMAGE_ORIGINS].filter(Boolean).join(" ");
  const csp = [
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
  headers.set("Content-Security-Policy", csp);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set(
    "Permissions-Policy",
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
  );
  headers.set("X-Frame-Options", "DENY");
  if (config().isProduction) {
    headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  }
}
