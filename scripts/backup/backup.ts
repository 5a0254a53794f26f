// Writing an archive: the tables from one snapshot, then the stored files,
// then the manifest.
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { finished } from "node:stream/promises";
import { sql } from "drizzle-orm";
import { Header, Pack, ReadEntry } from "tar";
import { type Db, rowsOf } from "~/services/db.server";
import { type Storage, isValidKey } from "~/services/storage.server";
import { fixTextFormats, insertOrder, listTables, tableRef } from "./database";
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupError,
  type BackupManifest,
  FILES,
  MANIFEST,
  MANIFEST_SUM,
  ROWS,
  plural,
} from "./format";
import { DEFAULT_MIGRATIONS_FOLDER, appliedMigration, readJournal } from "./migrations";

export interface BackupOptions {
  db: Db;
  storage: Storage;
  /** Archive to write; must not exist yet. */
  file: string;
  migrationsFolder?: string;
  log?: (line: string) => void;
}

export interface BackupResult {
  manifest: BackupManifest;
  /** Stored keys left out: not valid app keys (never served), or deleted while the backup ran. */
  skipped: string[];
}

/** Adds one file entry of known size to the archive, streaming its body; returns its checksum. */
async function addEntry(
  pack: Pack,
  entryPath: string,
  size: number,
  mtime: Date,
  body: AsyncIterable<Buffer | string> | Iterable<Buffer>,
): Promise<string> {
  const entry = new ReadEntry(new Header({ path: entryPath, size, mode: 0o644, mtime, type: "File" }));
  const consumed = new Promise<void>((resolve, reject) => {
    entry.once("end", resolve);
    entry.once("error", reject);
  });
  pack.add(entry);
  const hash = createHash("sha256");
  let written = 0;
  for await (const piece of body) {
    const chunk = typeof piece === "string" ? Buffer.from(piece) : piece;
    written += chunk.length;
    if (written > size) break;
    hash.update(chunk);
    // Wait for the archive to take the chunk: only a few chunks are ever in memory.
    if (!entry.write(chunk)) await once(entry, "drain");
  }
  if (written !== size) {
    throw new BackupError(
      `Plik ${entryPath} zmienił rozmiar w trakcie kopii (${size} → ${written} B); uruchom ją ponownie.`,
    );
  }
  entry.end();
  await consumed;
  return hash.digest("hex");
}

/** Writes every row of every table to one JSON Lines file each, from one consistent snapshot. */
async function dumpTables(db: Db, dir: string) {
  return db.transaction(
    async (tx) => {
      await fixTextFormats(tx);
      const tables = await listTables(tx);
      const order = await insertOrder(
        tx,
        tables.map((t) => t.name),
      );
      const dumped: (Omit<BackupManifest["tables"][number], "size" | "sha256"> & { file: string })[] = [];
      for (const [i, name] of order.entries()) {
        const table = tables.find((t) => t.name === name)!;
        const file = path.join(dir, `table-${i}.jsonl`);
        const out = createWriteStream(file);
        const values = table.columns.map((c) => sql`${sql.identifier(c.name)}::text`);
        const line = values.length ? sql`array_to_json(array[${sql.join(values, sql`, `)}]::text[])::text` : sql`'[]'`;
        const orderBy = table.primaryKey.length
          ? sql` order by ${sql.join(
              table.primaryKey.map((k) => sql.identifier(k)),
              sql`, `,
            )}`
          : sql``;
        // A cursor keeps a big table out of memory.
        await tx.execute(
          sql`declare backup_rows no scroll cursor for select ${line} as line from ${tableRef(name)}${orderBy}`,
        );
        let count = 0;
        for (;;) {
          const batch = await rowsOf<{ line: string }>(tx, sql`fetch forward 500 from backup_rows`);
          if (!batch.length) break;
          count += batch.length;
          if (!out.write(batch.map((r) => `${r.line}\n`).join(""))) await once(out, "drain");
        }
        await tx.execute(sql`close backup_rows`);
        out.end();
        await finished(out);
        dumped.push({
          name,
          path: `db/${encodeURIComponent(name)}.jsonl`,
          columns: table.columns,
          rows: count,
          file,
        });
      }
      const sequences: BackupManifest["sequences"] = [];
      const seqNames = await rowsOf<{ name: string }>(
        tx,
        sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
      );
      for (const { name } of seqNames) {
        const [s] = await rowsOf<{ last_value: string; is_called: boolean }>(
          tx,
          sql`select last_value::text as last_value, is_called from ${tableRef(name)}`,
        );
        sequences.push({ name, lastValue: s.last_value, isCalled: Boolean(s.is_called) });
      }
      const applied = await appliedMigration(tx);
      return { tables: dumped, sequences, applied };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/**
 * Writes one archive with every table and every stored file. The database
 * is read in one snapshot before the files are listed: the app stores a file
 * before the row naming it, so every file a saved row names is in the archive.
 */
export async function createBackup({
  db,
  storage,
  file,
  migrationsFolder = DEFAULT_MIGRATIONS_FOLDER,
  log = () => {},
}: BackupOptions): Promise<BackupResult> {
  const target = path.resolve(file);
  if (
    await fs.stat(target).then(
      () => true,
      () => false,
    )
  ) {
    throw new BackupError(`Plik ${target} już istnieje; podaj nową nazwę, by nie nadpisać wcześniejszej kopii.`);
  }
  const journal = await readJournal(migrationsFolder);
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-backup-"));
  // Written beside the target and renamed at the end: an interrupted backup never looks complete.
  const partial = `${target}.partial-${process.pid}`;
  let out: ReturnType<typeof createWriteStream> | undefined;
  try {
    log("Odczyt bazy danych…");
    const dumped = await dumpTables(db, work);
    if (dumped.applied === null) {
      throw new BackupError("Baza danych nie ma tabel aplikacji (brak migracji): nie ma czego kopiować.");
    }
    const level = journal.find((e) => e.when === dumped.applied);
    if (!level) {
      throw new BackupError(
        "Baza danych ma migracje nieznane tej wersji aplikacji (nowszej wersji?); zrób kopię wersją, która je utworzyła.",
      );
    }

    // Photos are compressed already: the fastest level saves as much on them as any.
    const pack = new Pack({ gzip: { level: 1 }, portable: true });
    out = createWriteStream(partial, { flags: "wx", mode: 0o600 });
    const written = finished(out);
    pack.on("error", (error: unknown) => out?.destroy(error as Error));
    pack.pipe(out);

    const tables: BackupManifest["tables"] = [];
    for (const t of dumped.tables) {
      const { size } = await fs.stat(t.file);
      const sha256 = await addEntry(pack, t.path, size, new Date(), createReadStream(t.file));
      tables.push({ name: t.name, path: t.path, columns: t.columns, rows: t.rows, size, sha256 });
      log(`  ${t.name}: ${plural(t.rows, ROWS)}`);
    }

    log("Odczyt plików…");
    const files: BackupManifest["files"] = [];
    const skipped: string[] = [];
    for (const entry of await storage.list("")) {
      if (!isValidKey(entry.key)) {
        skipped.push(entry.key);
        continue;
      }
      const stored = await storage.get(entry.key);
      if (!stored) {
        skipped.push(entry.key);
        continue;
      }
      const entryPath = `files/${entry.key}`;
      try {
        const sha256 = await addEntry(pack, entryPath, stored.size, entry.lastModified, stored.body);
        files.push({ key: entry.key, path: entryPath, size: stored.size, sha256 });
      } finally {
        stored.body.destroy();
      }
    }
    log(`  ${plural(files.length, FILES)}`);

    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date().toISOString(),
      migration: level,
      tables,
      sequences: dumped.sequences,
      files,
    };
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    const manifestSum = createHash("sha256").update(manifestBytes).digest("hex");
    await addEntry(pack, MANIFEST, manifestBytes.length, new Date(), [manifestBytes]);
    const sumLine = Buffer.from(`${manifestSum}  ${MANIFEST}\n`);
    await addEntry(pack, MANIFEST_SUM, sumLine.length, new Date(), [sumLine]);
    pack.end();
    await written;
    await fs.rename(partial, target);
    return { manifest, skipped };
  } catch (error) {
    out?.destroy();
    await fs.rm(partial, { force: true });
    throw error;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}
