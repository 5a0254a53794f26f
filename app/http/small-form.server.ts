import { readBodyCapped } from "~/services/streams.server";

/**
 * Forms of a few fields (a button's intent, a name, a code) are read only up
 * to a cap: a larger body is refused as soon as it passes the cap (or at once,
 * when its Content-Length says so), so a client cannot make the server read
 * or hold megabytes for a form that is small by nature. Chunked bodies are
 * counted as they arrive.
 */

/** The cap for the pastor area's small forms. */
export const SMALL_FORM_MAX_BYTES = 64 * 1024;
/** Forms of long texts ('dane zboru', a testimony): 100,000 characters, percent-encoded, and their fields. */
export const LONG_FORM_MAX_BYTES = 1024 * 1024;

export const TOO_LARGE_MESSAGE = "Formularz jest zbyt duży.";

/** 413, rendered by the root error boundary as a Polish page. */
export function formTooLarge(): Response {
  return new Response(TOO_LARGE_MESSAGE, {
    status: 413,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/**
 * The fields of a small form (url-encoded or multipart; files are left out).
 * Throws the 413 above when the body passes `limit`; a body that is not a
 * form gives no fields, which the route refuses as it refuses a wrong one.
 */
export async function readSmallForm(request: Request, limit = SMALL_FORM_MAX_BYTES): Promise<URLSearchParams> {
  const body = await readBodyCapped(request, limit);
  if (body === null) throw formTooLarge();
  const type = request.headers.get("Content-Type") ?? "";
  if (/^multipart\/form-data/i.test(type)) {
    try {
      const form = await new Response(new Uint8Array(body), { headers: { "Content-Type": type } }).formData();
      const fields = new URLSearchParams();
      for (const [name, value] of form) if (typeof value === "string") fields.append(name, value);
      return fields;
    } catch {
      return new URLSearchParams();
    }
  }
  return new URLSearchParams(body.toString("utf8"));
}
