import { sql } from "drizzle-orm";
import { withDb } from "~/db.server";

/** Liveness for the container: the process answers and the database responds. */
export async function loader() {
  try {
    await withDb((db) => db.execute(sql`select 1`));
    return new Response("ok", { headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
  } catch {
    return new Response("database unavailable", {
      status: 503,
      headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" },
    });
  }
}
