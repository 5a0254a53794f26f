import { isBooted } from "~/boot/boot.server";
import { pageCache } from "~/http/page-cache.server";
import { applySecurityHeaders } from "~/http/security-headers.server";
import { dependencies } from "~/services/health.server";

/**
 * Readiness for a load balancer: this instance can serve visitors. That is
 * true once booted while the database answers, and also while it does not
 * if the page cache holds pages: every instance shares the database, so
 * taking them all out of rotation would turn a database blip into a full
 * outage while they could still serve the public pages. The database and
 * storage are reported here for information; /healthz/dependencies fails
 * on them, for alerts.
 */
export async function loader() {
  // Before boot() has finished (or once shutdown has begun) nothing is ready.
  if (!isBooted()) return answer({ status: "starting" }, false);
  const reachable = await dependencies();
  const { pages } = pageCache().size();
  return answer({ ...reachable, cachedPages: pages }, reachable.database === "ok" || pages > 0);
}

function answer(body: object, ready: boolean) {
  const headers = new Headers({ "Content-Type": "application/json", "Cache-Control": "no-store" });
  applySecurityHeaders(headers);
  return new Response(JSON.stringify(body), { status: ready ? 200 : 503, headers });
}
