// Ministries (/sluzby) and testimonies (/onas): their rows, and a new site's
// samples, written once at start-up.
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { sampleMinistries, sampleTestimonies } from "~/content/church";
import { seedFacts } from "~/features/church/facts.server";
import { type Db, withDb } from "~/services/db.server";
import { churchFacts, ministries, testimonies } from "~/services/schema";

export interface MinistryView {
  id: number;
  name: string;
  description: string;
  people: string[];
}

export interface TestimonyView {
  id: number;
  title: string;
  text: string;
  author: string;
}

export async function listMinistries(): Promise<MinistryView[]> {
  return withDb((db) =>
    db
      .select({
        id: ministries.id,
        name: ministries.name,
        description: ministries.description,
        people: ministries.people,
      })
      .from(ministries)
      .orderBy(asc(ministries.position), asc(ministries.id)),
  );
}

const shownTestimony = and(eq(testimonies.hidden, false), isNull(testimonies.deletedAt));

const testimonyColumns = {
  id: testimonies.id,
  title: testimonies.title,
  text: testimonies.text,
  author: testimonies.author,
};

/** The testimonies visitors see, in the pastor's order. */
export async function listTestimonies(): Promise<TestimonyView[]> {
  return withDb((db) =>
    db
      .select(testimonyColumns)
      .from(testimonies)
      .where(shownTestimony)
      .orderBy(asc(testimonies.position), asc(testimonies.id)),
  );
}

/** A testimony visitors may read, or null (unknown, hidden or in the bin). */
export async function getTestimony(id: string): Promise<TestimonyView | null> {
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n < 1 || String(n) !== id) return null;
  const [row] = await withDb((db) =>
    db
      .select(testimonyColumns)
      .from(testimonies)
      .where(and(eq(testimonies.id, n), shownTestimony)),
  );
  return row ?? null;
}

/**
 * A new site's sample facts, ministries and testimonies, written at start-up
 * when no facts row exists yet (so a pastor's emptied list is not filled
 * again). The built-in testimonies keep their ids: their addresses were
 * shared.
 */
export async function seedChurchContent(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    // Two instances starting together: one seeds, the other then finds the row.
    await tx.execute(sql`select pg_advisory_xact_lock(${0x63687572})`);
    const [row] = await tx.select({ id: churchFacts.id }).from(churchFacts);
    if (row) return;
    await seedFacts(tx as unknown as Db);
    await tx.insert(ministries).values(sampleMinistries.map((m, position) => ({ ...m, position })));
    await tx.insert(testimonies).values(sampleTestimonies.map((t, position) => ({ ...t, position })));
    await tx.execute(
      sql`select setval(pg_get_serial_sequence('testimonies', 'id'), greatest((select max(id) from testimonies), 1))`,
    );
  });
}
