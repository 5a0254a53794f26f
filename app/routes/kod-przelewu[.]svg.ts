import type { LoaderFunctionArgs } from "@remix-run/node";
import { isNotModified, publicCache } from "~/http/cache.server";
import { publicPaymentPayload, readFacts } from "~/features/church/facts.server";
import { churchPaymentCode, paymentCodeVersion } from "~/features/giving/payment-qr.server";
import { applySecurityHeaders } from "~/http/security-headers.server";

/** The "Zapłać kodem" image. Pages link it with a content version, so that address may be cached for good. */
export async function loader({ request }: LoaderFunctionArgs) {
  // A real site whose account or NIP is still a sample shows no code.
  const payload = publicPaymentPayload(await readFacts());
  if (!payload) throw new Response("Nie ma kodu przelewu.", { status: 404 });
  const { svg, etag } = await churchPaymentCode(payload);
  const headers = new Headers({ "Content-Type": "image/svg+xml; charset=utf-8", ETag: etag });
  applySecurityHeaders(headers);
  // Another version (a page cached across a change of bank details, or any
  // other address) gets the current code, but only briefly.
  const current = new URL(request.url).searchParams.get("v") === paymentCodeVersion(payload);
  headers.set("Cache-Control", current ? "public, max-age=31536000, immutable" : publicCache());
  if (isNotModified(request, etag)) return new Response(null, { status: 304, headers });
  return new Response(svg, { headers });
}
