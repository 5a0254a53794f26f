import { church } from "~/content/church";
import { applySecurityHeaders } from "~/http/security-headers.server";
import { DatabaseUnavailableError } from "~/services/db.server";

const PAGE = `<!DOCTYPE html><html lang="pl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Serwis chwilowo niedostępny – ${church.name}</title></head><body><main><h1>Serwis chwilowo niedostępny</h1><p>Baza danych jest chwilowo niedostępna. Spróbuj ponownie za kilka sekund.</p><p><a href="/">Wróć na stronę główną</a></p></main></body></html>`;

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
  return new Response(PAGE, { status: 503, headers });
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
