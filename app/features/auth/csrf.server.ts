import { readBodyCapped } from "~/services/streams.server";
import { formTooLarge } from "~/http/small-form.server";
import crypto from "node:crypto";
import { createCookie } from "@remix-run/node";
import { config } from "~/services/config.server";
import { CSRF_FIELD, CSRF_HEADER } from "~/lib/csrf";
import { sessionSecrets } from "~/features/auth/session.server";
import { PANEL_PATH } from "~/lib/paths";

/**
 * Cross-site request checks for the pastor area. Two independent layers:
 * the browser's Origin (or Referer) must name this site, and the form must
 * carry a token only our own pages know.
 */

/** Refusal of a cross-site or tokenless write; the root error boundary renders it in Polish. */
export function forbidden(): Response {
  return new Response("Nieprawidłowe żądanie.", {
    status: 403,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

function ownHosts(request: Request): string[] {
  const hosts = [new URL(request.url).host];
  // A proxy that rewrites Host names the public one here.
  const forwarded = config().trustProxy ? request.headers.get("X-Forwarded-Host") : null;
  if (forwarded) hosts.push(forwarded.split(",")[0].trim());
  return hosts;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/**
 * False when the browser says the request comes from another site. Hosts
 * are compared, not schemes, since a TLS proxy may serve the app over
 * plain HTTP. Clients that send neither Origin nor Referer (not browsers,
 * so not a cross-site vector) pass; the token is still required.
 */
export function isSameOrigin(request: Request): boolean {
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return false;
  const origin = request.headers.get("Origin");
  if (origin !== null) {
    const host = hostOf(origin);
    return host !== null && ownHosts(request).includes(host);
  }
  const referer = request.headers.get("Referer");
  if (referer) {
    const host = hostOf(referer);
    return host !== null && ownHosts(request).includes(host);
  }
  return true;
}

export function tokensEqual(a: unknown, b: string): boolean {
  if (typeof a !== "string" || a.length !== b.length) return false;
  return crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

// Multipart bodies are scanned only this far for the token (see CsrfInput: first in the form).
const MULTIPART_SCAN_LIMIT = 64 * 1024;

function escapeRegExp(s: string) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Reads the token field from the start of a multipart body without
 * buffering the uploads behind it: a clone is read until the field is
 * found, then cancelled, so the route still streams the original.
 */
async function tokenFromMultipart(request: Request, boundary: string): Promise<string | null> {
  const body = request.clone().body;
  if (!body) return null;
  const reader = body.getReader();
  const field = new RegExp(
    `--${escapeRegExp(boundary)}\\r\\ncontent-disposition:\\s*form-data;\\s*name="${CSRF_FIELD}"\\r\\n(?:[^\\r\\n]+\\r\\n)*\\r\\n([^\\r\\n]*)\\r\\n--`,
    "i",
  );
  let text = "";
  try {
    while (text.length < MULTIPART_SCAN_LIMIT) {
      const { done, value } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString("latin1");
      const match = field.exec(text);
      if (match) return match[1];
    }
    return null;
  } finally {
    reader.cancel().catch(() => {});
  }
}

/**
 * The largest url-encoded form of the pastor area: an article of 100,000
 * characters, each up to nine bytes once percent-encoded, and its fields.
 */
export const URLENCODED_FORM_MAX_BYTES = 1024 * 1024;

/** The token sent with a write: a header, a url-encoded field or the start of a multipart body. */
export async function readSubmittedToken(request: Request): Promise<string | null> {
  const header = request.headers.get(CSRF_HEADER);
  if (header) return header;
  const type = request.headers.get("Content-Type") ?? "";
  if (/^application\/x-www-form-urlencoded/i.test(type)) {
    // Read before the route's own limits apply: capped here, so an anonymous
    // or forged post cannot make the server hold a huge body.
    // Larger than any form of the area: 413, whatever the token.
    const body = await readBodyCapped(request.clone(), URLENCODED_FORM_MAX_BYTES);
    if (body === null) throw formTooLarge();
    const value = new URLSearchParams(body.toString("utf8")).get(CSRF_FIELD);
    return typeof value === "string" ? value : null;
  }
  const boundary = /^multipart\/form-data;.*\bboundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  if (boundary) return tokenFromMultipart(request, boundary[1] ?? boundary[2]);
  return null;
}

/**
 * The login form has no session yet, so its token is a random value kept in
 * a short cookie and echoed by the form (double submit). It stops a foreign
 * page from signing a browser in to an account of its choosing.
 */
let loginCookie: ReturnType<typeof createCookie> | undefined;
function loginCsrfCookie() {
  // Not the old name: a browser may still hold that cookie on the login page's
  // own path, which would shadow this one there.
  loginCookie ??= createCookie("login_token", {
    httpOnly: true,
    sameSite: "lax",
    secure: config().isProduction,
    // The area, not the login page alone: the form's script posts to
    // /strefapastora/logowanie.data (single fetch), outside a cookie path of
    // /strefapastora/logowanie.
    path: PANEL_PATH,
    secrets: sessionSecrets(),
  });
  return loginCookie;
}

/** This browser's login-form token (read from its Cookie header), and a Set-Cookie header when it is new. */
export async function loginCsrfToken(cookies: string | null): Promise<{ token: string; setCookie: string | null }> {
  const existing = await loginCsrfCookie().parse(cookies);
  if (typeof existing === "string" && existing.length === 43) return { token: existing, setCookie: null };
  const token = crypto.randomBytes(32).toString("base64url");
  return { token, setCookie: await loginCsrfCookie().serialize(token) };
}

export async function isValidLoginCsrf(cookies: string | null, submitted: unknown): Promise<boolean> {
  const expected = await loginCsrfCookie().parse(cookies);
  return typeof expected === "string" && tokensEqual(submitted, expected);
}
