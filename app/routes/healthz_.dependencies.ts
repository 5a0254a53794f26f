import { applySecurityHeaders } from "~/http/security-headers.server";
import { dependencies } from "~/services/health.server";

/**
 * For monitoring and alerts: 200 only while the database and the file
 * storage both answer. Not for a load balancer (see /readyz): every
 * instance shares them, so failing this takes none out of rotation usefully.
 */
export async function loader() {
  const reachable = await dependencies();
  const ok = reachable.database === "ok" && reachable.storage === "ok";
  const headers = new Headers({ "Content-Type": "application/json", "Cache-Control": "no-store" });
  applySecurityHeaders(headers);
  return new Response(JSON.stringify(reachable), { status: ok ? 200 : 503, headers });
}
