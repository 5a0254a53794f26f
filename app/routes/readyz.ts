import { sql } from "drizzle-orm";
import { isBooted } from "~/boot/boot.server";
import { db } from "~/services/db.server";
import { applySecurityHeaders } from "~/http/security-headers.server";
import { storage } from "~/services/storage.server";

async function check(fn: () => Promise<unknown>): Promise<"ok" | "unavailable"> {
  try {
    await Promise.race([
      fn(),
      new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), 3_000).unref()),
    ]);
    return "ok";
  } catch {
    return "unavailable";
  }
}

/** Readiness for a load balancer: the database and the file storage both answer. */
export async function loader() {
  // Before boot() has finished (or once shutdown has begun) nothing is ready.
  if (!isBooted()) return answer({ status: "starting" }, false);
  const [database, files] = await Promise.all([
    check(async () => (await db()).execute(sql`select 1`)),
    // A key that never exists: any answer, even "not found", means reachable.
    check(() => storage().exists("readyz/probe")),
  ]);
  return answer({ database, storage: files }, database === "ok" && files === "ok");
}

function answer(body: object, ready: boolean) {
  const headers = new Headers({ "Content-Type": "application/json", "Cache-Control": "no-store" });
  applySecurityHeaders(headers);
  return new Response(JSON.stringify(body), { status: ready ? 200 : 503, headers });
}
