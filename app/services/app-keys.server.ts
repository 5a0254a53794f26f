import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { withDb } from "~/services/db.server";
import { appKeys } from "~/services/schema";

/**
 * A key the site makes for itself, once, and every instance shares (it is in
 * the database, so also in a backup): read, or made by the first instance
 * that needs it. For keys that must outlive a change of the session secret.
 */
export function appKey(name: string): Promise<string> {
  return withDb(async (db) => {
    await db
      .insert(appKeys)
      .values({ name, value: crypto.randomBytes(32).toString("base64url"), createdAt: new Date() })
      .onConflictDoNothing();
    const [row] = await db.select({ value: appKeys.value }).from(appKeys).where(eq(appKeys.name, name));
    return row!.value;
  });
}
