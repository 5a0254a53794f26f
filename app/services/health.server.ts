import { sql } from "drizzle-orm";
import { db } from "~/services/db.server";
import { storage } from "~/services/storage.server";

export type Reachability = "ok" | "unavailable";

async function check(fn: () => Promise<unknown>): Promise<Reachability> {
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

/** Whether the database and the file storage answer, each within 3 s. */
export async function dependencies(): Promise<{ database: Reachability; storage: Reachability }> {
  const [database, files] = await Promise.all([
    check(async () => (await db()).execute(sql`select 1`)),
    // A key that never exists: any answer, even "not found", means reachable.
    check(() => storage().exists("readyz/probe")),
  ]);
  return { database, storage: files };
}
