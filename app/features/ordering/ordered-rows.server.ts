// The pastor's ordered lists (ministries, testimonies, the /onas photos):
// ↑/↓ and a drag's new order, each in the caller's transaction, under a lock
// of the table so two changes at once cannot tie positions, with its entry in
// the history of changes. The whole list is renumbered, so ties left by older
// rows cannot stall a move.
import { type SQL, asc, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { type Actor, type ActivitySubject, recordActivity } from "~/features/activity/activity.server";
import type { Db } from "~/services/db.server";
import { sameMembers } from "~/lib/order";

/** Where a list lives: its table, the columns that order and name a row, and which rows are in it. */
export interface OrderedList {
  table: PgTable;
  id: PgColumn;
  position: PgColumn;
  /** What a row is called in the history of changes and in the page's message. */
  label: PgColumn;
  kind: ActivitySubject;
  /** Rows outside the list (e.g. in the bin), left where they are. */
  where?: SQL;
}

/** missing: no such row; stale: the posted order is not the list's rows; done: `label` is the moved row's. */
export type OrderChange =
  { status: "missing" } | { status: "stale" } | { status: "done"; label: string; changed: boolean };

type Tx = Pick<Db, "execute" | "select" | "insert">;

async function lockedList(tx: Tx, list: OrderedList): Promise<{ id: number; label: string }[]> {
  await lockOrder(tx, list);
  return tx
    .select({ id: sql<number>`${list.id}`, label: sql<string>`${list.label}` })
    .from(list.table)
    .where(list.where)
    .orderBy(asc(list.position), asc(list.id));
}

/** Taken before adding a row at the end too, so a new row and a move cannot tie. */
export function lockOrder(tx: Pick<Db, "execute">, list: Pick<OrderedList, "table">) {
  return tx.execute(sql`lock table ${list.table} in share row exclusive mode`);
}

async function writeOrder(
  tx: Tx,
  list: OrderedList,
  ids: number[],
  moved: { id: number; label: string },
  actor: Actor,
) {
  for (const [position, id] of ids.entries()) {
    await tx.execute(
      sql`update ${list.table} set ${sql.identifier(list.position.name)} = ${position} where ${sql.identifier(list.id.name)} = ${id}`,
    );
  }
  await recordActivity(tx, { actor, action: "edited", subject: { kind: list.kind, id: moved.id, title: moved.label } });
}

/** ↑ or ↓: swaps the row with its neighbour; at either end nothing changes. */
export async function moveRow(
  tx: Tx,
  list: OrderedList,
  id: number,
  way: "up" | "down",
  actor: Actor,
): Promise<OrderChange> {
  const rows = await lockedList(tx, list);
  const i = rows.findIndex((r) => r.id === id);
  if (i < 0) return { status: "missing" };
  const j = way === "up" ? i - 1 : i + 1;
  if (j < 0 || j >= rows.length) return { status: "done", label: rows[i].label, changed: false };
  [rows[i], rows[j]] = [rows[j], rows[i]];
  await writeOrder(
    tx,
    list,
    rows.map((r) => r.id),
    rows[j],
    actor,
  );
  return { status: "done", label: rows[j].label, changed: true };
}

/**
 * A new order after a drag: `order` must name every row of the list once (a
 * list changed in another tab meanwhile is refused, not reordered from a
 * stale picture). `moved` is the row dragged, for the history.
 */
export async function reorderRows(
  tx: Tx,
  list: OrderedList,
  order: number[],
  moved: number,
  actor: Actor,
): Promise<OrderChange> {
  const rows = await lockedList(tx, list);
  const movedRow = rows.find((r) => r.id === moved);
  if (
    !movedRow ||
    !sameMembers(
      order,
      rows.map((r) => r.id),
    )
  )
    return { status: "stale" };
  if (order.every((id, i) => rows[i].id === id)) return { status: "done", label: movedRow.label, changed: false };
  await writeOrder(tx, list, order, movedRow, actor);
  return { status: "done", label: movedRow.label, changed: true };
}
