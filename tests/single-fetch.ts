// Remix's single-fetch data requests as the browser's router makes and
// reads them, for tests that check what a script-driven visit gets.
import { decode } from "turbo-stream";

/** The data request address of a page: `/path.data` (`/_root.data` for the home page), `?index` for an index route's action. */
export function dataUrl(path: string, { index = false } = {}) {
  return `${path === "/" ? "/_root" : path}.data${index ? "?index" : ""}`;
}

/**
 * Where a single-fetch answer (status 202) sends the router, decoded as the
 * router does (turbo-stream with Remix's own types); null when it carries
 * data or an error instead.
 */
export async function dataRedirect(body: ReadableStream<Uint8Array> | Uint8Array): Promise<string | null> {
  let target: string | null = null;
  const stream = body instanceof Uint8Array ? new Response(new Uint8Array(body)).body! : body;
  const decoded = await decode(stream, {
    plugins: [
      (type: string, ...values: unknown[]) => {
        if (type === "SingleFetchRedirect") {
          target = (values[0] as { redirect: string }).redirect;
          return { value: null };
        }
        if (type === "ErrorResponse" || type === "SanitizedError") return { value: values };
      },
    ],
  });
  await decoded.done;
  // A POST's answer is the redirect itself, not wrapped in the type.
  const value = decoded.value as { redirect?: unknown } | null;
  if (target === null && value && typeof value.redirect === "string") target = value.redirect;
  return target;
}
