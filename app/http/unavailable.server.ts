import { FALLBACK_PAGES } from "~/http/fallback-pages.server";
import { applySecurityHeaders } from "~/http/security-headers.server";
import { DatabaseUnavailableError } from "~/services/db.server";

/**
 * The answer while the database cannot be reached: a small Polish page that
 * needs nothing from it, and a hint to try again in a few seconds.
 */
export function unavailableResponse(): Response {
  const headers = new Headers({
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "Retry-After": "5",
  });
  applySecurityHeaders(headers);
  return new Response(FALLBACK_PAGES.unavailable, { status: 503, headers });
}

/**
 * For resource routes (feeds, sitemap), whose errors Remix answers itself
 * with a 500: an unreachable database becomes the 503 above. Pages get it
 * from entry.server.tsx.
 */
export async function orUnavailable(answer: () => Promise<Response>): Promise<Response> {
  try {
    return await answer();
  } catch (error) {
    if (error instanceof DatabaseUnavailableError) return unavailableResponse();
    throw error;
  }
}
