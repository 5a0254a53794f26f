import type { ClientLoaderFunctionArgs } from "@remix-run/react";

/**
 * The `clientLoader` of a page that is never rendered by React in the
 * browser (`handle.hydrate: false`, see app/root.tsx): when the router of a
 * hydrated page would open it (a link, a redirect after a form), the browser
 * loads the document instead, with the page's own script.
 */
export function documentOnly({ request }: ClientLoaderFunctionArgs): Promise<never> {
  window.location.assign(request.url);
  // The router waits while the browser leaves the page.
  return new Promise(() => {});
}
