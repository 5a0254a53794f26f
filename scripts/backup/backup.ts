// Backup and restore of the whole site: every table of the public schema and
// every stored file, in one tar.gz archive with a manifest of checksums.
//
// Archive layout (format "zbor-backup", version 1):
//   db/<table>.jsonl        one line per row: a JSON array of the row's values
//                           as PostgreSQL prints them (column::text), null as null
//   files/<key>             every stored file, byte for byte
//   manifest.json           format, createdAt, migration level, tables (columns,
//                           row counts, size and SHA-256 of each table file),
//                           sequences, files (key, size, SHA-256)
//   manifest.json.sha256    `sha256sum` line for manifest.json
// The manifest comes last because it holds checksums of what was streamed
// before it; restore reads the whole archive before writing anything anyway.
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { finished } from "node:stream/promises";
import { type SQL, sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { Header, Pack, Parser, ReadEntry } from "tar";
import { z } from "zod";
import type { Config } from "~/services/config.server";
import { type Db, MIGRATIONS_FOLDER } from "~/services/db.server";
import * as schema from "~/services/schema";
import { type Storage, contentTypeFor, isValidKey } from "~/services/storage.server";

export const BACKUP_FORMAT = "zbor-backup";
export const BACKUP_VERSION = 1;
const MANIFEST = "manifest.json";
const MANIFEST_SUM = "manifest.json.sha256";

export const DEFAULT_MIGRATIONS_FOLDER = MIGRATIONS_FOLDER;

/** "1 wiersz", "3 wiersze", "5 wierszy": Polish plural forms. */
export function plural(n: number, [one, few, many]: [string, string, string]): string {
  const tens = n % 100;
  const units = n % 10;
  const word = n === 1 ? one : units >= 2 && units <= 4 && (tens < 12 || tens > 14) ? few : many;
  return `${n} ${word}`;
}
export const ROWS: [string, string, string] = ["wiersz", "wiersze", "wierszy"];
export const FILES: [string, string, string] = ["plik", "pliki", "plików"];
export const TABLES: [string, string, string] = ["tabela", "tabele", "tabel"];

/** A refusal or a failed check, with a message meant for the person running the command. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_VERSION),
  createdAt: z.string(),
  migration: z.object({ idx: z.number().int(), tag: z.string(), when: z.number().int() }),
  tables: z.array(
    z.object({
      name: z.string().min(1),
      path: z.string().min(1),
      columns: z.array(z.object({ name: z.string().min(1), type: z.string().min(1) })),
      rows: z.number().int().min(0),
      size: z.number().int().min(0),
      sha256: sha256Hex,
    }),
  ),
  sequences: z.array(
    z.object({ name: z.string().min(1), lastValue: z.string().regex(/^-?\d+$/), isCalled: z.boolean() }),
  ),
  files: z.array(
    z.object({
      key: z.string().refine(isValidKey, "invalid storage key"),
      path: z.string().min(1),
      size: z.number().int().min(0),
      sha256: sha256Hex,
    }),
  ),
});

export type BackupManifest = z.infer<typeof manifestSchema>;
export type MigrationLevel = BackupManifest["migration"];

// ---------------------------------------------------------------- database

/** Anything that runs raw SQL: the database or a transaction on it. */
type Executor = { execute: Db["execute"] };

async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  // postgres.js returns the rows, PGlite an object holding them.
  return (Array.isArray(result) ? result : (result as unknown as { rows: T[] }).rows) as T[];
}

const tableRef = (name: string) => sql`${sql.identifier("public")}.${sql.identifier(name)}`;

// Values travel as PostgreSQL's own text form, which its input functions read
// back exactly (as COPY does); these settings make that form fixed.
async function fixTextFormats(tx: Executor) {
  await tx.execute(sql`set local timezone = 'UTC'`);
  await tx.execute(sql`set local datestyle = 'ISO, YMD'`);
  await tx.execute(sql`set local intervalstyle = 'postgres'`);
  await tx.execute(sql`set local extra_float_digits = 3`);
  await tx.execute(sql`set local bytea_output = 'hex'`);
}

interface TableInfo {
  name: string;
  columns: { name: string; type: string }[];
  primaryKey: string[];
}

/** Every ordinary table of the public schema (whatever migrations made), columns in order. */
async function listTables(db: Executor): Promise<TableInfo[]> {
  const tables = await rows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
        order by c.relname`,
  );
  // Generated columns are computed by the database and cannot be inserted.
  const columns = await rows<{ table: string; name: string; type: string }>(
    db,
    sql`select c.relname as table, a.attname as name, format_type(a.atttypid, a.atttypmod) as type
        from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
          and a.attgenerated = ''
        order by c.relname, a.attnum`,
  );
  const keys = await rows<{ table: string; name: string }>(
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
async function insertOrder(db: Executor, names: string[]): Promise<string[]> {
  const edges = await rows<{ child: string; parent: string }>(
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

async function selfReferencingTables(db: Executor): Promise<Set<string>> {
  const found = await rows<{ name: string }>(
    db,
    sql`select distinct c.relname as name from pg_constraint k
        join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
        where k.contype = 'f' and k.conrelid = k.confrelid and n.nspname = 'public'`,
  );
  return new Set(found.map((r) => r.name));
}

async function tablesWithRows(db: Executor): Promise<{ name: string; rows: number }[]> {
  const out: { name: string; rows: number }[] = [];
  for (const { name } of await listTables(db)) {
    const [{ count }] = await rows<{ count: string }>(db, sql`select count(*)::text as count from ${tableRef(name)}`);
    if (Number(count) > 0) out.push({ name, rows: Number(count) });
  }
  return out;
}

// ---------------------------------------------------------------- migrations

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
async function appliedMigration(db: Executor): Promise<number | null> {
  const [{ present }] = await rows<{ present: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  if (!present) return null;
  const [{ at }] = await rows<{ at: string | null }>(
    db,
    sql`select max(created_at)::text as at from drizzle.__drizzle_migrations`,
  );
  return at === null ? null : Number(at);
}

/** Applies the migrations of `folder` up to and including `upTo` (all when omitted). */
async function migrateUpTo(db: Db, folder: string, upTo?: JournalEntry) {
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

// ---------------------------------------------------------------- connections

export interface OpenDatabase {
  db: Db;
  close(): Promise<void>;
}

/**
 * Opens the configured database without migrating, seeding or creating
 * accounts (db() does all three): a backup only reads, and a restore needs
 * the database exactly as empty as it found it.
 */
export async function openDatabase(database: Config["database"]): Promise<OpenDatabase> {
  if (database.kind === "postgres") {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const client = postgres(database.url, { max: 4, connect_timeout: 10, onnotice: () => {} });
    return { db: drizzle(client, { schema }), close: () => client.end({ timeout: 10 }) };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  if (database.dir) await fs.mkdir(database.dir, { recursive: true });
  const client = database.dir ? new PGlite(database.dir) : new PGlite();
  await client.waitReady;
  return { db: drizzle(client, { schema }) as unknown as Db, close: () => client.close() };
}

/** True when something accepts connections on the port (the server, most likely). */
export function portAnswers(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 500 });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
  });
}

// ---------------------------------------------------------------- backup

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
          const batch = await rows<{ line: string }>(tx, sql`fetch forward 500 from backup_rows`);
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
      const seqNames = await rows<{ name: string }>(
        tx,
        sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
      );
      for (const { name } of seqNames) {
        const [s] = await rows<{ last_value: string; is_called: boolean }>(
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

// ---------------------------------------------------------------- reading an archive

interface ExtractedEntry {
  file: string;
  size: number;
  sha256: string;
}

interface VerifiedArchive {
  manifest: BackupManifest;
  entries: Map<string, ExtractedEntry>;
}

/**
 * Unpacks the archive into `dir` (under names of our own, never the archive's
 * paths) while hashing every entry, then checks everything against the
 * manifest. Nothing is written anywhere else until this has passed.
 */
async function extractAndVerify(file: string, dir: string): Promise<VerifiedArchive> {
  const entries = new Map<string, ExtractedEntry>();
  const problems: string[] = [];
  let n = 0;
  // Our own failures (disk full, say) are not the archive's fault: keep them apart.
  let localError: Error | undefined;
  const outs: ReturnType<typeof createWriteStream>[] = [];
  let input: ReturnType<typeof createReadStream> | undefined;
  await new Promise<void>((resolve, reject) => {
    let pendingWrites = 0;
    let parsed = false;
    const settle = () => parsed && pendingWrites === 0 && resolve();
    const parser = new Parser({
      strict: true,
      onReadEntry(entry) {
        if (entry.type !== "File" && entry.type !== "OldFile") {
          problems.push(`nieoczekiwany wpis ${entry.path} (${entry.type})`);
          entry.resume();
          return;
        }
        if (entries.has(entry.path)) {
          problems.push(`wpis ${entry.path} występuje dwa razy`);
          entry.resume();
          return;
        }
        const extracted = { file: path.join(dir, `entry-${n++}`), size: 0, sha256: "" };
        entries.set(entry.path, extracted);
        const hash = createHash("sha256");
        const out = createWriteStream(extracted.file, { flags: "wx", mode: 0o600 });
        outs.push(out);
        pendingWrites++;
        out.on("error", (error) => {
          localError = error;
          reject(error);
        });
        out.on("finish", () => {
          pendingWrites--;
          settle();
        });
        entry.on("data", (chunk: Buffer) => {
          hash.update(chunk);
          extracted.size += chunk.length;
          // Holding the entry holds the parser: the archive is read no faster than the disk writes.
          if (!out.write(chunk)) {
            entry.pause();
            out.once("drain", () => entry.resume());
          }
        });
        entry.on("end", () => {
          extracted.sha256 = hash.digest("hex");
          out.end();
        });
      },
    });
    parser.on("error", reject);
    parser.on("abort", reject);
    parser.on("end", () => {
      parsed = true;
      settle();
    });
    input = createReadStream(file);
    input.on("error", (error) => {
      localError = error;
      reject(error);
    });
    input.pipe(parser);
  }).catch(async (error: Error) => {
    // Stop reading and let every half-written file close before the folder is removed.
    input?.destroy();
    await Promise.all(
      outs.map((out) =>
        out.closed ? null : new Promise<void>((resolve) => out.once("close", () => resolve()).destroy()),
      ),
    );
    if (error === localError) throw error;
    throw new BackupError(`Archiwum jest uszkodzone albo to nie kopia strony: ${error.message}`);
  });

  const manifestEntry = entries.get(MANIFEST);
  const sumEntry = entries.get(MANIFEST_SUM);
  if (!manifestEntry || !sumEntry)
    throw new BackupError("Archiwum nie zawiera manifestu (niepełne albo to nie kopia strony).");
  const expectedSum = (await fs.readFile(sumEntry.file, "utf8")).split(/\s+/)[0];
  if (expectedSum !== manifestEntry.sha256)
    throw new BackupError("Suma kontrolna manifestu się nie zgadza: archiwum jest uszkodzone.");
  let raw: unknown;
  try {
    raw = JSON.parse(await fs.readFile(manifestEntry.file, "utf8"));
  } catch {
    throw new BackupError("Manifest archiwum nie jest poprawnym JSON-em.");
  }
  const header = raw as { format?: unknown; version?: unknown };
  if (header?.format !== BACKUP_FORMAT)
    throw new BackupError("To nie jest kopia zapasowa tej strony (inny format archiwum).");
  if (header.version !== BACKUP_VERSION) {
    throw new BackupError(
      `Archiwum ma format w wersji ${String(header.version)}, a ta wersja aplikacji zna wersję ${BACKUP_VERSION}.`,
    );
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    throw new BackupError(
      `Manifest archiwum jest niepoprawny: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  }
  const manifest = parsed.data;

  const expected = new Map<string, { size: number; sha256: string }>();
  for (const t of manifest.tables) expected.set(t.path, t);
  for (const f of manifest.files) {
    if (expected.has(f.path)) problems.push(`wpis ${f.path} opisany dwa razy`);
    expected.set(f.path, f);
  }
  for (const [entryPath, want] of expected) {
    const got = entries.get(entryPath);
    if (!got) problems.push(`brak ${entryPath}`);
    else if (got.size !== want.size || got.sha256 !== want.sha256)
      problems.push(`${entryPath}: suma kontrolna się nie zgadza`);
  }
  for (const entryPath of entries.keys()) {
    if (entryPath !== MANIFEST && entryPath !== MANIFEST_SUM && !expected.has(entryPath)) {
      problems.push(`wpis ${entryPath} spoza manifestu`);
    }
  }
  if (problems.length) {
    const shown = problems.slice(0, 10).join("; ") + (problems.length > 10 ? `; … (${problems.length} problemów)` : "");
    throw new BackupError(`Archiwum jest uszkodzone, nic nie przywrócono: ${shown}`);
  }
  return { manifest, entries };
}

/** Reads and checks an archive without restoring it (e.g. to test a backup). */
export async function verifyBackup(file: string): Promise<BackupManifest> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-verify-"));
  try {
    return (await extractAndVerify(file, dir)).manifest;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Lines of a file split at "\n" only (JSON escapes every other line break). */
async function* readLines(file: string): AsyncGenerator<string> {
  let rest = "";
  for await (const chunk of createReadStream(file, { encoding: "utf8" })) {
    const parts = (rest + (chunk as string)).split("\n");
    rest = parts.pop()!;
    yield* parts;
  }
  if (rest) yield rest;
}

// ---------------------------------------------------------------- restore

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

/** Runs `work` on every item, `width` at a time; after a failure no new item starts, and all under way finish. */
async function runPool<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  let failed = false;
  const results = await Promise.allSettled(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      try {
        while (!failed && next < items.length) await work(items[next++]);
      } catch (error) {
        failed = true;
        throw error;
      }
    }),
  );
  const rejected = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (rejected) throw rejected.reason;
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
        const [{ n }] = await rows<{ n: string }>(tx, sql`select count(*)::text as n from ${tableRef(name)}`);
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
      await rows<{ name: string }>(
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
  const owned = await rows<{ table: string; column: string; seq: string }>(
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
