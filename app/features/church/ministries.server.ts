// The pastor's changes to the ministries of /sluzby: each in one transaction
// with its history entry, then the content version so every instance's
// pages follow at once.
import { asc, eq, sql } from "drizzle-orm";
import { type Actor, recordActivity } from "~/features/activity/activity.server";
import { contentChanged } from "~/services/content-version.server";
import { type Db, withDb } from "~/services/db.server";
import { ministries } from "~/services/schema";
import { STALE_ORDER_MESSAGE, sameMembers } from "~/lib/order";

export const MINISTRY_NAME_MAX = 200;
export const MINISTRY_TEXT_MAX = 5_000;

export interface MinistryInput {
  name: string;
  description: string;
  /** One person a line, in the order shown. */
  people: string;
}

export type MinistryResult =
  { ok: true; name: string } | { ok: false; status: 400 | 404 | 409; error: string; field?: "name" | "people" };

const peopleOf = (text: string) =>
  text
    .split("\n")
    .map((p) => p.trim())
    .filter(Boolean);

function check(
  input: MinistryInput,
): MinistryResult | { ok: true; values: { name: string; description: string; people: string[] } } {
  const name = input.name.trim();
  const description = input.description.replace(/\r\n?/g, "\n").trim();
  const people = peopleOf(input.people.replace(/\r\n?/g, "\n"));
  if (!name) return { ok: false, status: 400, error: "Podaj nazwę służby.", field: "name" };
  if (name.length > MINISTRY_NAME_MAX) {
    return {
      ok: false,
      status: 400,
      error: `Nazwa służby może mieć najwyżej ${MINISTRY_NAME_MAX} znaków.`,
      field: "name",
    };
  }
  if (description.length > MINISTRY_TEXT_MAX || input.people.length > MINISTRY_TEXT_MAX) {
    return { ok: false, status: 400, error: "Za długi tekst.", field: "people" };
  }
  if (!people.length) return { ok: false, status: 400, error: "Wpisz co najmniej jedną osobę.", field: "people" };
  return { ok: true, values: { name, description, people } };
}

async function afterCommit<T extends { ok: boolean }>(db: Db, result: T): Promise<T> {
  if (result.ok) await contentChanged(db);
  return result;
}

const notFound: MinistryResult = { ok: false, status: 404, error: "Tej służby już nie ma." };

export async function addMinistry(input: MinistryInput, { actor }: { actor: Actor }): Promise<MinistryResult> {
  const checked = check(input);
  if (!("values" in checked)) return checked;
  const { values } = checked;
  return withDb(async (db) =>
    afterCommit(
      db,
      await db.transaction(async (tx) => {
        const [{ next }] = await tx
          .select({ next: sql<number>`coalesce(max(${ministries.position}) + 1, 0)::int` })
          .from(ministries);
        const [row] = await tx
          .insert(ministries)
          .values({ ...values, position: next })
          .returning({ id: ministries.id });
        await recordActivity(tx, {
          actor,
          action: "created",
          subject: { kind: "ministry", id: row.id, title: values.name },
        });
        return { ok: true as const, name: values.name };
      }),
    ),
  );
}

export async function updateMinistry(
  id: number,
  input: MinistryInput,
  { actor }: { actor: Actor },
): Promise<MinistryResult> {
  const checked = check(input);
  if (!("values" in checked)) return checked;
  const { values } = checked;
  return withDb(async (db) => {
    const rows = await db.transaction(async (tx) => {
      const updated = await tx
        .update(ministries)
        .set(values)
        .where(eq(ministries.id, id))
        .returning({ id: ministries.id });
      if (updated.length) {
        await recordActivity(tx, { actor, action: "edited", subject: { kind: "ministry", id, title: values.name } });
      }
      return updated;
    });
    return afterCommit(db, rows.length ? { ok: true as const, name: values.name } : notFound);
  });
}

/** ↑ or ↓: swaps the ministry with its neighbour (the whole list renumbered, so ties from older rows cannot stall it). */
export async function moveMinistry(
  id: number,
  way: "up" | "down",
  { actor }: { actor: Actor },
): Promise<MinistryResult> {
  return withDb(async (db) => {
    const result = await db.transaction(async (tx) => {
      await tx.execute(sql`lock table ${ministries} in share row exclusive mode`);
      const list = await tx
        .select({ id: ministries.id, name: ministries.name })
        .from(ministries)
        .orderBy(asc(ministries.position), asc(ministries.id));
      const i = list.findIndex((m) => m.id === id);
      if (i < 0) return notFound;
      const j = way === "up" ? i - 1 : i + 1;
      if (j < 0 || j >= list.length) return { ok: true as const, name: list[i].name };
      [list[i], list[j]] = [list[j], list[i]];
      for (const [position, m] of list.entries()) {
        await tx.update(ministries).set({ position }).where(eq(ministries.id, m.id));
      }
      await recordActivity(tx, { actor, action: "edited", subject: { kind: "ministry", id, title: list[j].name } });
      return { ok: true as const, name: list[j].name };
    });
    return afterCommit(db, result);
  });
}

/**
 * A new order after a drag: `order` must name every ministry once (a list
 * changed in another tab meanwhile is refused, not reordered from a stale
 * picture). `moved` is the one dragged, for the history.
 */
export async function reorderMinistries(
  order: number[],
  moved: number,
  { actor }: { actor: Actor },
): Promise<MinistryResult> {
  return withDb(async (db) => {
    const result = await db.transaction(async (tx): Promise<MinistryResult> => {
      await tx.execute(sql`lock table ${ministries} in share row exclusive mode`);
      const list = await tx
        .select({ id: ministries.id, name: ministries.name })
        .from(ministries)
        .orderBy(asc(ministries.position), asc(ministries.id));
      const movedRow = list.find((m) => m.id === moved);
      if (
        !movedRow ||
        !sameMembers(
          order,
          list.map((m) => m.id),
        )
      )
        return { ok: false, status: 409, error: STALE_ORDER_MESSAGE };
      if (order.every((id, i) => list[i].id === id)) return { ok: true, name: movedRow.name };
      for (const [position, id] of order.entries()) {
        await tx.update(ministries).set({ position }).where(eq(ministries.id, id));
      }
      await recordActivity(tx, {
        actor,
        action: "edited",
        subject: { kind: "ministry", id: moved, title: movedRow.name },
      });
      return { ok: true, name: movedRow.name };
    });
    return afterCommit(db, result);
  });
}

export async function removeMinistry(id: number, { actor }: { actor: Actor }): Promise<MinistryResult> {
  return withDb(async (db) => {
    const result = await db.transaction(async (tx) => {
      const [row] = await tx.delete(ministries).where(eq(ministries.id, id)).returning({ name: ministries.name });
      if (!row) return notFound;
      await recordActivity(tx, { actor, action: "purged", subject: { kind: "ministry", id, title: row.name } });
      return { ok: true as const, name: row.name };
    });
    return afterCommit(db, result);
  });
}
