// What backup and restore read of a database: its tables, their columns and
// keys, the order foreign keys impose, and a fixed text form of values.
import { sql } from "drizzle-orm";
import { type Db, rowsOf } from "~/services/db.server";

/** Anything that runs raw SQL: the database or a transaction on it. */
export type Executor = { execute: Db["execute"] };

export const tableRef = (name: string) => sql`${sql.identifier("public")}.${sql.identifier(name)}`;

// Values travel as PostgreSQL's own text form, which its input functions read
// back exactly (as COPY does); these settings make that form fixed.
export async function fixTextFormats(tx: Executor) {
  await tx.execute(sql`set local timezone = 'UTC'`);
  await tx.execute(sql`set local datestyle = 'ISO, YMD'`);
  await tx.execute(sql`set local intervalstyle = 'postgres'`);
  await tx.execute(sql`set local extra_float_digits = 3`);
  await tx.execute(sql`set local bytea_output = 'hex'`);
}

export interface TableInfo {
  name: string;
  columns: { name: string; type: string }[];
  primaryKey: string[];
}

/** Every ordinary table of the public schema (whatever migrations made), columns in order. */
export async function listTables(db: Executor): Promise<TableInfo[]> {
  const tables = await rowsOf<{ name: string }>(
    db,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
        order by c.relname`,
  );
  // Generated columns are computed by the database and cannot be inserted.
  const columns = await rowsOf<{ table: string; name: string; type: string }>(
    db,
    sql`select c.relname as table, a.attname as name, format_type(a.atttypid, a.atttypmod) as type
        from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
          and a.attgenerated = ''
        order by c.relname, a.attnum`,
  );
  const keys = await rowsOf<{ table: string; name: string }>(
    db,
    sql`select c.relname as table, a.attname as name
        from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attnum = any(i.indkey)
        where n.nspname = 'public' and i.indisprimary
        order by c.relname, array_position(i.indkey::int2[], a.attnum)`,
  );
  return tables.map(({ name }) => ({
    name,
    columns: columns.filter((c) => c.table === name).map((c) => ({ name: c.name, type: c.type })),
    primaryKey: keys.filter((k) => k.table === name).map((k) => k.name),
  }));
}

/** Tables ordered so that every table comes after the tables its foreign keys point to. */
export async function insertOrder(db: Executor, names: string[]): Promise<string[]> {
  const edges = await rowsOf<{ child: string; parent: string }>(
    db,
    sql`select c.relname as child, p.relname as parent
        from pg_constraint k
        join pg_class c on c.oid = k.conrelid join pg_namespace cn on cn.oid = c.relnamespace
        join pg_class p on p.oid = k.confrelid join pg_namespace pn on pn.oid = p.relnamespace
        where k.contype = 'f' and cn.nspname = 'public' and pn.nspname = 'public'`,
  );
  const known = new Set(names);
  const parents = new Map(names.map((n) => [n, new Set<string>()]));
  for (const { child, parent } of edges) {
    // A table referring to itself is inserted in one statement (checked at its end).
    if (child !== parent && known.has(child) && known.has(parent)) parents.get(child)!.add(parent);
  }
  const order: string[] = [];
  const placed = new Set<string>();
  const sorted = [...names].sort();
  while (order.length < names.length) {
    const next = sorted.find((n) => !placed.has(n) && [...parents.get(n)!].every((p) => placed.has(p)));
    // A cycle: the rest go in name order and rely on deferrable constraints.
    const pick = next ?? sorted.find((n) => !placed.has(n))!;
    order.push(pick);
    placed.add(pick);
  }
  return order;
}

export async function selfReferencingTables(db: Executor): Promise<Set<string>> {
  const found = await rowsOf<{ name: string }>(
    db,
    sql`select distinct c.relname as name from pg_constraint k
        join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
        where k.contype = 'f' and k.conrelid = k.confrelid and n.nspname = 'public'`,
  );
  return new Set(found.map((r) => r.name));
}

export async function tablesWithRows(db: Executor): Promise<{ name: string; rows: number }[]> {
  const out: { name: string; rows: number }[] = [];
  for (const { name } of await listTables(db)) {
    const [{ count }] = await rowsOf<{ count: string }>(db, sql`select count(*)::text as count from ${tableRef(name)}`);
    if (Number(count) > 0) out.push({ name, rows: Number(count) });
  }
  return out;
}
