// Migration levels: the app's journal, what a database has applied, and
// migrating only up to an archive's level.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { type Db, MIGRATIONS_FOLDER, rowsOf } from "~/services/db.server";
import type { Executor } from "./database";

export const DEFAULT_MIGRATIONS_FOLDER = MIGRATIONS_FOLDER;

export interface JournalEntry {
  idx: number;
  tag: string;
  when: number;
}

export async function readJournal(folder = DEFAULT_MIGRATIONS_FOLDER): Promise<JournalEntry[]> {
  const journal = JSON.parse(await fs.readFile(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: JournalEntry[];
  };
  return journal.entries.map(({ idx, tag, when }) => ({ idx, tag, when }));
}

/** The `when` of the last migration applied (drizzle's own bookkeeping), or null for none. */
export async function appliedMigration(db: Executor): Promise<number | null> {
  const [{ present }] = await rowsOf<{ present: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  if (!present) return null;
  const [{ at }] = await rowsOf<{ at: string | null }>(
    db,
    sql`select max(created_at)::text as at from drizzle.__drizzle_migrations`,
  );
  return at === null ? null : Number(at);
}

/** Applies the migrations of `folder` up to and including `upTo` (all when omitted). */
export async function migrateUpTo(db: Db, folder: string, upTo?: JournalEntry) {
  const entries = await readJournal(folder);
  if (!upTo || upTo.when >= entries[entries.length - 1].when) {
    await migrate(db, { migrationsFolder: folder });
    return;
  }
  // drizzle applies every migration its journal lists: hand it a copy that stops at the archive's level.
  const partial = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-migrations-"));
  try {
    await fs.mkdir(path.join(partial, "meta"));
    const journal = JSON.parse(await fs.readFile(path.join(folder, "meta", "_journal.json"), "utf8"));
    journal.entries = journal.entries.filter((e: JournalEntry) => e.when <= upTo.when);
    await fs.writeFile(path.join(partial, "meta", "_journal.json"), JSON.stringify(journal));
    for (const e of journal.entries as JournalEntry[]) {
      await fs.copyFile(path.join(folder, `${e.tag}.sql`), path.join(partial, `${e.tag}.sql`));
    }
    await migrate(db, { migrationsFolder: partial });
  } finally {
    await fs.rm(partial, { recursive: true, force: true });
  }
}
