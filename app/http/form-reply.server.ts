import { data, redirect } from "@remix-run/node";
import { flashCookieHeader, redirectWithFlash } from "~/http/flash.server";
import type { UploadReply } from "~/lib/upload-reply";

/** What one post of a form came to: saved (go on, with a one-time message) or refused (show the form again). */
export type FormOutcome<Refusal> =
  { ok: true; redirectTo: string; flash: string } | { ok: false; status: number; refused: Refusal };

/** The answer to a plain form post: a redirect, or the refusal as the page's action data. */
export async function pageReply<Refusal>(outcome: FormOutcome<Refusal>) {
  if (outcome.ok) return redirectWithFlash(outcome.redirectTo, outcome.flash);
  return data(outcome.refused, { status: outcome.status });
}

/**
 * The answer to the same post sent by the upload script: JSON, never a
 * redirect (XMLHttpRequest would follow it and the page could not navigate).
 * The one-time message is set here, read by the page the script opens.
 */
export async function uploadReply<Refusal>(outcome: FormOutcome<Refusal>) {
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (outcome.ok) {
    headers.append("Set-Cookie", await flashCookieHeader(outcome.flash));
    const reply: UploadReply<Refusal> = { redirectTo: outcome.redirectTo };
    return Response.json(reply, { headers });
  }
  const reply: UploadReply<Refusal> = { refused: outcome.refused };
  return Response.json(reply, { status: outcome.status, headers });
}

/** A redirect a feature chose, with the one-time message it left, if any. */
export async function redirectReply({ redirectTo, flash }: { redirectTo: string; flash?: string }) {
  return flash === undefined ? redirect(redirectTo) : redirectWithFlash(redirectTo, flash);
}
