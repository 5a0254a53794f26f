import { applySecurityHeaders } from "~/http/security-headers.server";

/**
 * Liveness: the process answers. Whether the database and storage answer is
 * /readyz's question; a restart would not bring the database back.
 */
export function loader() {
  const headers = new Headers({ "Content-Type": "text/plain", "Cache-Control": "no-store" });
  applySecurityHeaders(headers);
  return new Response("ok", { headers });
}
