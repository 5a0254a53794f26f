// Restoring an archive into an empty database and an empty storage.
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pLimit from "p-limit";
import { type Db, rowsOf } from "~/services/db.server";
import { type Storage, contentTypeFor } from "~/services/storage.server";
import {
  type Executor,
  fixTextFormats,
  insertOrder,
  listTables,
  selfReferencingTables,
  tableRef,
  tablesWithRows,
} from "./database";
import { BackupError, type BackupManifest, FILES, ROWS, plural } from "./format";
import { DEFAULT_MIGRATIONS_FOLDER, appliedMigration, migrateUpTo, readJournal } from "./migrations";
import { extractAndVerify, readLines } from "./read-archive";

export interface RestoreOptions {
  /** The target database, open but possibly without any tables yet. */
  db: Db;
  storage: Storage;
  file: string;
  migrationsFolder?: string;
  /** Where the archive is unpacked while it is checked (default: the system's temp folder). */
  workDir?: string;
  log?: (line: string) => void;
}

/**
 * Runs `work` on every item, `width` at a time; after a failure no new item
 * starts, and all under way finish before the first failure is thrown (so
 * that the caller's cleanup sees every file that was written).
 */
async function runPool<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
  const limit = pLimit({ concurrency: width, rejectOnClear: true });
  let failure: { error: unknown } | undefined;
  await Promise.allSettled(
    items.map((item) =>
      limit(async () => {
        try {
          await work(item);
        } catch (error) {
          failure ??= { error };
          // Items still waiting are dropped (their promises reject); those running go on.
          limit.clearQueue();
          throw error;
        }
      }),
    ),
  );
  if (failure) throw failure.error;
}

/**
 * Restores an archive into an empty database and an empty storage. Checks
 * come first (target empty, archive intact, migration level usable); then
 * the files are written and read back against their checksums; last, all
 * rows go in within one transaction, so the site never shows rows whose
 * files are missing. A failure before the rows are in removes the files it wrote.
 */
export async function restoreBackup({
  db,
  storage,
  file,
  migrationsFolder = DEFAULT_MIGRATIONS_FOLDER,
  workDir,
  log = () => {},
}: RestoreOptions): Promise<BackupManifest> {
  await fs.access(file).catch(() => {
    throw new BackupError(`Nie ma pliku ${file}.`);
  });

  // 1. The target must be empty: nothing is ever overwritten or merged.
  const nonEmpty = await tablesWithRows(db);
  const stored = await storage.list("");
  if (nonEmpty.length || stored.length) {
    const what = [
      ...nonEmpty.map((t) => `tabela ${t.name} (${plural(t.rows, ROWS)})`),
      ...(stored.length ? [`magazyn plików (${plural(stored.length, FILES)}, np. ${stored[0].key})`] : []),
    ];
    throw new BackupError(
      `Przywracam tylko do pustej bazy i pustego magazynu plików; nie są puste: ${what.join(", ")}.`,
    );
  }

  const work = await fs.mkdtemp(path.join(workDir ?? os.tmpdir(), "zbor-restore-"));
  const written: string[] = [];
  try {
    // 2. The whole archive, checked before anything is written.
    log("Sprawdzanie archiwum…");
    const { manifest, entries } = await extractAndVerify(file, work);

    // 3. Migration levels: the archive's rows fit the schema at its own level.
    const journal = await readJournal(migrationsFolder);
    const appLevel = journal[journal.length - 1];
    const level = journal.find((e) => e.when === manifest.migration.when && e.tag === manifest.migration.tag);
    if (!level) {
      throw new BackupError(
        manifest.migration.when > appLevel.when
          ? `Archiwum pochodzi z nowszej wersji aplikacji (migracja ${manifest.migration.tag}, ta wersja zna do ${appLevel.tag}); zaktualizuj aplikację.`
          : `Archiwum ma migrację ${manifest.migration.tag}, której ta wersja aplikacji nie zna.`,
      );
    }
    const applied = await appliedMigration(db);
    if (applied !== null && applied > level.when) {
      throw new BackupError(
        `Baza docelowa ma już nowsze migracje niż archiwum (${manifest.migration.tag}); przywróć do nowej bazy bez tabel.`,
      );
    }
    await migrateUpTo(db, migrationsFolder, level);

    // 4. The rows must fit the tables as they are now.
    const tables = await listTables(db);
    for (const t of manifest.tables) {
      const target = tables.find((x) => x.name === t.name);
      if (!target) throw new BackupError(`Baza docelowa nie ma tabeli ${t.name} z archiwum.`);
      const missing = t.columns.filter((c) => !target.columns.some((x) => x.name === c.name));
      if (missing.length) {
        throw new BackupError(`Tabela ${t.name} nie ma kolumn ${missing.map((c) => c.name).join(", ")} z archiwum.`);
      }
    }
    const order = await insertOrder(
      db,
      manifest.tables.map((t) => t.name),
    );
    const selfReferencing = await selfReferencingTables(db);

    // 5. Files, each read back and compared with its checksum.
    log(`Zapisywanie plików: ${manifest.files.length}…`);
    const mismatched: string[] = [];
    await runPool(manifest.files, 4, async (f) => {
      const source = entries.get(f.path)!;
      written.push(f.key);
      await storage.putFile(f.key, source.file, contentTypeFor(f.key));
      const back = await storage.get(f.key);
      const check = back ? createHash("sha256") : null;
      let size = 0;
      if (back) {
        for await (const chunk of back.body) {
          check!.update(chunk as Buffer);
          size += (chunk as Buffer).length;
        }
      }
      if (!check || size !== f.size || check.digest("hex") !== f.sha256) mismatched.push(f.key);
    });
    if (mismatched.length) {
      throw new BackupError(
        `Pliki zapisane w magazynie różnią się od archiwum: ${mismatched.slice(0, 10).join(", ")}.`,
      );
    }

    // 6. Rows and sequences, all or nothing.
    log("Zapisywanie bazy danych…");
    await db.transaction(async (tx) => {
      await fixTextFormats(tx);
      await tx.execute(sql`set constraints all deferred`);
      const late = await tablesWithRows(tx);
      if (late.length)
        throw new BackupError(`Baza docelowa przestała być pusta: ${late.map((t) => t.name).join(", ")}.`);
      const now = await listTables(tx);
      for (const name of order) {
        const t = manifest.tables.find((x) => x.name === name)!;
        const target = now.find((x) => x.name === name)!;
        const types = t.columns.map((c) => target.columns.find((x) => x.name === c.name)!.type);
        const insert = (batch: string[]) =>
          tx.execute(sql`insert into ${tableRef(name)} (${sql.join(
            t.columns.map((c) => sql.identifier(c.name)),
            sql`, `,
          )})
            overriding system value
            select ${sql.join(
              types.map((type, i) => sql`cast(r ->> ${sql.raw(String(i))} as ${sql.raw(type)})`),
              sql`, `,
            )}
            from json_array_elements(${`[${batch.join(",")}]`}::json) as r`);
        let batch: string[] = [];
        let batchBytes = 0;
        let count = 0;
        for await (const line of readLines(entries.get(t.path)!.file)) {
          const values = JSON.parse(line) as unknown;
          if (
            !Array.isArray(values) ||
            values.length !== t.columns.length ||
            values.some((v) => v !== null && typeof v !== "string")
          ) {
            throw new BackupError(`Wiersz ${count + 1} tabeli ${name} w archiwum jest niepoprawny.`);
          }
          batch.push(line);
          batchBytes += line.length;
          count++;
          // A table referring to itself goes in one statement, so its foreign key is checked once.
          if ((batch.length >= 1000 || batchBytes > 4_000_000) && !selfReferencing.has(name)) {
            await insert(batch);
            batch = [];
            batchBytes = 0;
          }
        }
        if (batch.length) await insert(batch);
        const [{ n }] = await rowsOf<{ n: string }>(tx, sql`select count(*)::text as n from ${tableRef(name)}`);
        if (count !== t.rows || Number(n) !== t.rows) {
          throw new BackupError(`Tabela ${name}: manifest podaje ${plural(t.rows, ROWS)}, przywrócono ${n}.`);
        }
        log(`  ${name}: ${plural(count, ROWS)}`);
      }
      await restoreSequences(tx, manifest.sequences);
    });
    // The rows now name these files: from here on they stay whatever happens.
    written.length = 0;

    // 7. Archives from an older version: the remaining migrations convert the rows.
    if (level.when < appLevel.when) await migrateUpTo(db, migrationsFolder);
    return manifest;
  } catch (error) {
    if (written.length) {
      await Promise.all(written.map((key) => storage.delete(key).catch(() => {})));
    }
    throw error;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** Sequences as they were; never below the largest value already in the column they feed. */
async function restoreSequences(tx: Executor, sequences: BackupManifest["sequences"]) {
  const existing = new Set(
    (
      await rowsOf<{ name: string }>(
        tx,
        sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = 'public' and c.relkind = 'S'`,
      )
    ).map((r) => r.name),
  );
  for (const s of sequences) {
    if (!existing.has(s.name)) continue;
    await tx.execute(
      sql`select setval(${`"public"."${s.name.replace(/"/g, '""')}"`}::regclass, ${s.lastValue}::bigint, ${s.isCalled})`,
    );
  }
  const owned = await rowsOf<{ table: string; column: string; seq: string }>(
    tx,
    sql`select c.relname as table, a.attname as column,
          pg_get_serial_sequence(quote_ident(n.nspname) || '.' || quote_ident(c.relname), a.attname) as seq
        from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
          and pg_get_serial_sequence(quote_ident(n.nspname) || '.' || quote_ident(c.relname), a.attname) is not null`,
  );
  for (const o of owned) {
    // Ids of rows whose sequence the archive did not describe must still not be handed out again.
    await tx.execute(sql`select setval(${o.seq}::regclass, m) from (
        select max(${sql.identifier(o.column)})::bigint as m from ${tableRef(o.table)}) x,
        -- pg_get_serial_sequence returns the name already quoted.
        (select last_value, is_called from ${sql.raw(o.seq)}) s
      where m is not null and m > (case when s.is_called then s.last_value else s.last_value - 1 end)`);
  }
}
