// Backup and restore on real databases and real storage: seeded content goes
// through an archive into empty ones, and every row, file and public page
// must come back the same. Also the refusals: corrupted archives, targets
// that are not empty, archives from a newer version, a running server.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBackup } from "../../scripts/backup/backup";
import { openDatabase } from "../../scripts/backup/connections";
import { BackupError, type BackupManifest } from "../../scripts/backup/format";
import { DEFAULT_MIGRATIONS_FOLDER, readJournal } from "../../scripts/backup/migrations";
import { verifyBackup } from "../../scripts/backup/read-archive";
import { restoreBackup } from "../../scripts/backup/restore";
import { articles, galleries, users } from "~/services/schema";
import { type Db, rowsOf } from "~/services/db.server";
import { seedDemoContent } from "~/boot/seed.server";
import { seedChurchContent } from "~/features/church/about.server";
import { seedSampleEvents } from "~/features/events/samples.server";
import { type S3Storage, type Storage, diskStorage, isPrivateKey, storage } from "~/services/storage.server";
import { type RunningServer, freePort, startBuiltServer } from "../faults/server";
import { S3_CREDENTIALS, startS3 } from "../s3";
import { createScratchDatabase } from "../setup/database";

const run = promisify(execFile);
const usePostgres = process.env.DATABASE_URL?.startsWith("postgres") ?? false;

interface Site {
  db: Db;
  storage: Storage;
  /** Environment for a server (or a CLI) using this database and DATA_DIR. */
  env: Record<string, string>;
  close(): Promise<void>;
  drop(): Promise<void>;
}

const cleanups: (() => Promise<unknown>)[] = [];
let tmp: string;

/**
 * An empty database (a new Postgres database when the tests use Postgres,
 * else PGlite: in a folder when a server must open it later, else in memory)
 * and empty disk storage under `dataDir`.
 */
async function newSite(
  dataDir: string,
  { serve = false, store }: { serve?: boolean; store?: Storage } = {},
): Promise<Site> {
  await fs.mkdir(dataDir, { recursive: true });
  let env: Record<string, string>;
  let database: Parameters<typeof openDatabase>[0];
  let drop = async () => {};
  if (usePostgres) {
    const scratch = await createScratchDatabase("backup");
    database = { kind: "postgres", url: scratch.url };
    env = { DATABASE_URL: scratch.url, DATA_DIR: dataDir };
    drop = scratch.drop;
  } else {
    database = { kind: "pglite", dir: serve ? path.join(dataDir, "pglite") : null };
    env = { DATABASE_URL: "", DATA_DIR: dataDir };
  }
  let conn: Awaited<ReturnType<typeof openDatabase>> | null = await openDatabase(database);
  const site: Site = {
    db: conn.db,
    storage: store ?? diskStorage(path.join(dataDir, "uploads")),
    env,
    async close() {
      await conn?.close();
      conn = null;
    },
    async drop() {
      await site.close();
      await drop();
    },
  };
  cleanups.push(() => site.drop());
  return site;
}

/**
 * Everything in a database, rendered by PostgreSQL itself (row_to_json of
 * whole rows, generated columns included), independently of how the backup
 * renders values.
 */
async function snapshot(db: Db) {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await t.execute(sql`set local timezone = 'UTC'`);
    const tables = await rowsOf<{ name: string }>(
      t,
      sql`select tablename as name from pg_tables where schemaname = 'public' order by 1`,
    );
    const rows: Record<string, string[]> = {};
    for (const { name } of tables) {
      rows[name] = (
        await rowsOf<{ r: string }>(t, sql`select row_to_json(x)::text as r from ${sql.identifier(name)} x order by 1`)
      ).map((r) => r.r);
    }
    const sequences: Record<string, string> = {};
    for (const { name } of await rowsOf<{ name: string }>(
      t,
      sql`select sequence_name as name from information_schema.sequences where sequence_schema = 'public' order by 1`,
    )) {
      const [s] = await rowsOf<{ v: string }>(
        t,
        sql`select last_value::text || ' ' || is_called::text as v from ${sql.identifier(name)}`,
      );
      sequences[name] = s.v;
    }
    const migrations = await rowsOf<{ hash: string; at: string }>(
      t,
      sql`select hash, created_at::text as at from drizzle.__drizzle_migrations order by id`,
    );
    return { rows, sequences, migrations };
  });
}

async function totalRows(db: Db): Promise<number> {
  let total = 0;
  for (const { name } of await rowsOf<{ name: string }>(
    db,
    sql`select tablename as name from pg_tables where schemaname = 'public'`,
  )) {
    const [{ n }] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(name)}`);
    total += n;
  }
  return total;
}

async function readAll(store: Storage, key: string): Promise<Buffer> {
  const file = await store.get(key);
  if (!file) throw new Error(`missing ${key}`);
  return buffer(file.body);
}

/** Every stored file of `a` is in `b` with the same bytes, and nothing else is. */
async function expectSameFiles(a: Storage, b: Storage) {
  const keys = (await a.list("")).map((e) => e.key);
  expect((await b.list("")).map((e) => e.key)).toEqual(keys);
  for (const key of keys) {
    expect((await readAll(b, key)).equals(await readAll(a, key)), key).toBe(true);
  }
  return keys;
}

async function expectEmpty(site: Site) {
  const tables = await rowsOf<{ name: string }>(
    site.db,
    sql`select tablename as name from pg_tables where schemaname = 'public'`,
  );
  if (tables.length) expect(await totalRows(site.db)).toBe(0);
  expect(await site.storage.list("")).toEqual([]);
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BackupError);
  return (error as BackupError).message;
}

/** Unpacks an archive, lets `change` edit it, and packs it again (files only, valid gzip and tar). */
async function repack(archive: string, out: string, change: (dir: string) => Promise<void>) {
  const dir = await fs.mkdtemp(path.join(tmp, "repack-"));
  await tar.x({ file: archive, cwd: dir });
  await change(dir);
  const entries: string[] = [];
  await tar.t({ file: archive, onReadEntry: (e) => void entries.push(e.path) });
  await tar.c({ gzip: true, portable: true, file: out, cwd: dir }, entries);
}

const SESSION_CREATED = "2025-01-02T03:04:05.123456+00:00";
const EXTRA_TEXT =
  "Zażółć gęślą jaźń – ZAŻÓŁĆ GĘŚLĄ JAŹŃ 🙏🏻🕊️\n\nDrugi akapit:\t\"cudzysłów\", \\ukośnik\\, 'apostrof'; --\r\n" +
  "<script>alert(1)</script> \u2028\u2029 koniec\n";

const OUR_ACCOUNT = "61 1090 1014 0000 0712 1981 2874";
let source: Site;
let archive: string;
let manifest: BackupManifest;
let diskTarget: Site;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-backup-test-"));
  // The source keeps its files where the app's own storage() puts them:
  // seedDemoContent stores its images through it.
  source = await newSite(process.env.DATA_DIR!, { serve: true, store: storage() });
  await migrate(source.db, { migrationsFolder: DEFAULT_MIGRATIONS_FOLDER });
  await seedDemoContent(source.db);
  // The congregation's facts (the account no longer a sample), ministries,
  // testimonies and events, as a site's first start writes them.
  await seedChurchContent(source.db);
  await seedSampleEvents(source.db);
  await source.db.execute(sql`update church_facts
    set data = jsonb_set(data, '{account}', to_jsonb(${OUR_ACCOUNT}::text)),
        sample = sample - 'account', version = version + 1`);
  await source.db.insert(articles).values({
    id: "1620000000000",
    header: "Święto 3 Maja 🇵🇱 – „Bóg, Honor, Ojczyzna”",
    text: EXTRA_TEXT,
    date: "3 maja 2021, poniedziałek",
    createdAt: new Date("2021-05-03T10:00:00.000Z"),
  });
  // Microseconds a JavaScript Date cannot hold must survive too.
  await source.db.execute(
    sql`update articles set created_at = '2024-02-29 23:59:59.999999+00' where id = '1620000000000'`,
  );
  const [user] = await source.db
    .insert(users)
    .values({ email: "Pastor.Łukasz@example.org", passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c29sdA$aGFzaA" })
    .returning({ id: users.id });
  await source.db.execute(sql`insert into sessions (id, user_id, expires_at, created_at)
    values (${"a".repeat(64)}, ${user.id}, '2099-12-31 23:59:59.000001+00', ${SESSION_CREATED})`);
  await source.db.execute(
    sql`insert into login_failures (address, email, at) values ('2001:db8::/64', 'x@example.org', now())`,
  );
  // A form kept after its session ended: typed text (jsonb) and its photo come back with the rest.
  await source.storage.put(`zachowane/${"k".repeat(43)}.upload`, Buffer.from("zdjęcie"), "application/octet-stream");
  await source.db.execute(sql`insert into devices (id, user_id, created_at, last_used_at, user_agent)
    values (${"d".repeat(64)}, ${user.id}, now(), now(), 'Firefox')`);
  await source.db
    .execute(sql`insert into kept_forms (id, owner, device_id, form, path, fields, photo_key, photo_name, photo_size, created_at, expires_at)
    values (${"k".repeat(43)}, 'pastor.łukasz@example.org', ${"d".repeat(64)}, 'article-add', '/strefapastora/artykuly/dodaj',
      ${JSON.stringify({ header: "Zachowany „tekst”", text: "Treść\nz nową linią" })}::jsonb,
      ${`zachowane/${"k".repeat(43)}.upload`}, 'zdjęcie.jpg', 7, now(), now() + interval '1 day')`);
  // Drafts and schedules: an article and an album never published, an article
  // due far ahead, and an album being edited with its typed publication time.
  await source.db.insert(articles).values([
    { id: "1630000000000", header: "Szkic", text: "Jeszcze nie.", date: "2025-02-01", publishAt: null },
    {
      id: "1630000000001",
      header: "Zaplanowany",
      text: "Później.",
      date: "2025-02-02",
      publishAt: new Date("2099-06-01T16:00:00.000Z"),
    },
  ]);
  const [draftAlbum] = await source.db
    .insert(galleries)
    .values({ title: "Album w szkicu", date: "2025-02-03", publishAt: null })
    .returning({ id: galleries.id });
  await source.db.execute(sql`insert into gallery_drafts (id, user_id, gallery_id, date, folder, publish_at_text,
      created_at, updated_at) values ('szkic-kopii', ${user.id}, ${draftAlbum.id}, '2025-02-03', 'abc123',
      '2099-06-01T18:00', now(), now())`);
  // A finished one-time job over the files: restored with them, so it is not redone.
  await source.db.execute(sql`insert into image_backfills (name, done_at) values ('webp-360-720', now())`);
  // A deleted album: the sequence stands above max(id), as it does on a live site.
  const [gone] = await source.db
    .insert(galleries)
    .values({ title: "Usunięty album", date: "2025-01-01" })
    .returning({ id: galleries.id });
  await source.db.execute(sql`delete from galleries where id = ${gone.id}`);
  // An article with a photo in the bin, and the history of changes: they come back as they were.
  await source.db.execute(sql`update articles set deleted_at = '2026-11-20 18:05:00.123456+00',
    deleted_by = 'pastor.łukasz@example.org'
    where id = '1600000000000'`);
  await source.db
    .execute(sql`insert into activity_log (at, user_id, actor, action, subject_kind, subject_id, subject_title, address)
    select '2026-11-20 18:05:00.123456+00', ${user.id}, 'pastor.łukasz@example.org', 'binned', 'article', id, header, null
    from articles where deleted_at is not null`);
  await source.db.execute(sql`insert into activity_log (at, actor, action, address)
    values ('2026-11-20 18:00:00+00', 'pastor.łukasz@example.org', 'signed_in', '2001:db8::1')`);

  archive = path.join(tmp, "kopia.tar.gz");
  manifest = (await createBackup({ db: source.db, storage: source.storage, file: archive })).manifest;
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

describe("backup", () => {
  it("describes every table, every stored file and the migration level in its manifest", async () => {
    const journal = await readJournal();
    expect(manifest.migration).toEqual(journal[journal.length - 1]);
    const tables = await rowsOf<{ name: string }>(
      source.db,
      sql`select tablename as name from pg_tables where schemaname = 'public' order by 1`,
    );
    expect(manifest.tables.map((t) => t.name).sort()).toEqual(tables.map((t) => t.name));
    const snap = await snapshot(source.db);
    for (const t of manifest.tables) expect(t.rows, t.name).toBe(snap.rows[t.name].length);
    expect(manifest.tables.find((t) => t.name === "articles")!.rows).toBe(7);

    const stored = await source.storage.list("");
    expect(stored.length).toBeGreaterThan(20);
    expect(manifest.files.map((f) => f.key)).toEqual(stored.map((e) => e.key));
    for (const f of manifest.files) {
      const bytes = await readAll(source.storage, f.key);
      expect(f.size).toBe(bytes.length);
      expect(f.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    }
    // A standard tar.gz: what the manifest lists is there under its own name.
    const entries: string[] = [];
    await tar.t({ file: archive, onReadEntry: (e) => void entries.push(e.path) });
    expect(entries).toEqual(
      expect.arrayContaining(["manifest.json", "db/articles.jsonl", ...manifest.files.map((f) => `files/${f.key}`)]),
    );
    expect((await fs.stat(archive)).mode & 0o077).toBe(0);
  });

  it("refuses to overwrite an existing archive", async () => {
    const message = await refusal(createBackup({ db: source.db, storage: source.storage, file: archive }));
    expect(message).toContain("już istnieje");
  });
});

describe("restore", () => {
  it("brings back every row, sequence and file into an empty database and storage (disk)", async () => {
    diskTarget = await newSite(path.join(tmp, "target-disk"), { serve: true });
    await restoreBackup({ db: diskTarget.db, storage: diskTarget.storage, file: archive });

    const [before, after] = [await snapshot(source.db), await snapshot(diskTarget.db)];
    expect(Object.keys(after.rows)).toEqual(Object.keys(before.rows));
    for (const table of Object.keys(before.rows)) expect(after.rows[table], table).toEqual(before.rows[table]);
    expect(after.sequences).toEqual(before.sequences);
    expect(after.migrations).toEqual(before.migrations);

    // Spot checks that the comparison sees what matters.
    const [extra] = await rowsOf<{ text: string; date: string; created: string; image: string | null }>(
      diskTarget.db,
      sql`select text, date, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') as created,
            image_key as image from articles where id = '1620000000000'`,
    );
    expect(extra).toEqual({
      text: EXTRA_TEXT,
      date: "3 maja 2021, poniedziałek",
      created: "2024-02-29 23:59:59.999999",
      image: null,
    });
    // Drafts stay drafts, schedules keep their moment, the editor its typed time.
    const states = await rowsOf<{ id: string; at: string | null }>(
      diskTarget.db,
      sql`select id, to_char(publish_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as at from articles
            where id in ('1630000000000', '1630000000001') order by id`,
    );
    expect(states).toEqual([
      { id: "1630000000000", at: null },
      { id: "1630000000001", at: "2099-06-01 16:00" },
    ]);
    const [album] = await rowsOf<{ at: string | null; typed: string }>(
      diskTarget.db,
      sql`select g.publish_at::text as at, d.publish_at_text as typed from galleries g
            join gallery_drafts d on d.gallery_id = g.id where g.title = 'Album w szkicu'`,
    );
    expect(album).toEqual({ at: null, typed: "2099-06-01T18:00" });
    const [session] = await rowsOf<{ created: string }>(
      diskTarget.db,
      sql`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"') as created from sessions`,
    );
    expect(session.created).toBe(SESSION_CREATED);
    // The next album gets the id the source would have given it.
    const next = async (db: Db) =>
      (await db.insert(galleries).values({ title: "Nowy", date: "2026-01-01" }).returning({ id: galleries.id }))[0].id;
    const expected = await next(source.db);
    expect(await next(diskTarget.db)).toBe(expected);
    await source.db.execute(sql`delete from galleries where id = ${expected}`);
    await diskTarget.db.execute(sql`delete from galleries where id = ${expected}`);
    await source.db.execute(sql`select setval('galleries_id_seq', ${expected - 1})`);
    await diskTarget.db.execute(sql`select setval('galleries_id_seq', ${expected - 1})`);

    const keys = await expectSameFiles(source.storage, diskTarget.storage);
    expect(keys.length).toBe(manifest.files.length);
  }, 120_000);

  it("keeps the bin (the binned article and its photo) and the history of changes", async () => {
    const binned = async (db: Db) =>
      rowsOf<{ id: string; key: string; deleted: string; by: string }>(
        db,
        sql`select id, image_key as key, to_char(deleted_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') as deleted,
              deleted_by as by from articles where deleted_at is not null`,
      );
    const [item] = await binned(diskTarget.db);
    expect(item).toMatchObject({ deleted: "2026-11-20 18:05:00.123456", by: "pastor.łukasz@example.org" });
    expect(await binned(diskTarget.db)).toEqual(await binned(source.db));
    expect(await diskTarget.storage.exists(item.key)).toBe(true);
    const history = async (db: Db) =>
      rowsOf<{ action: string; subject: string | null }>(
        db,
        sql`select action, subject_id as subject from activity_log order by at desc, id desc`,
      );
    expect(await history(diskTarget.db)).toEqual([
      { action: "binned", subject: item.id },
      { action: "signed_in", subject: null },
    ]);
  });

  it("carries the congregation's facts with what is still a sample, its ministries, testimonies and events", async () => {
    const church = async (db: Db) => ({
      facts: await rowsOf<{ account: string; sample: string[]; version: number }>(
        db,
        sql`select data->>'account' as account, sample, version from church_facts`,
      ),
      ministries: await rowsOf<{ name: string }>(db, sql`select name from ministries order by position`),
      testimonies: await rowsOf<{ id: number; title: string }>(
        db,
        sql`select id, title from testimonies order by position`,
      ),
      events: await rowsOf<{ title: string; weekdays: string[] }>(
        db,
        sql`select title, weekdays from events order by id`,
      ),
    });
    const restored = await church(diskTarget.db);
    expect(restored.facts).toEqual([
      { account: OUR_ACCOUNT, sample: expect.not.arrayContaining(["account"]), version: 2 },
    ]);
    expect(restored.facts[0].sample).toContain("nip");
    expect(restored.ministries).toHaveLength(9);
    expect(restored.testimonies.map((t) => t.id)).toEqual([1, 2, 3, 4, 5]);
    expect(restored.events.map((e) => e.title)).toEqual([
      "Nabożeństwo niedzielne",
      "Spotkania młodzieżowe",
      "Grupy domowe",
    ]);
    expect(restored).toEqual(await church(source.db));
  });

  it("refuses a target that is not empty, naming what is not", async () => {
    const both = await refusal(restoreBackup({ db: source.db, storage: source.storage, file: archive }));
    expect(both).toMatch(/tabela articles \(7 wierszy\)/);
    expect(both).toMatch(/tabela users \(1 wiersz\)/);
    expect(both).toMatch(/magazyn plików \(\d+ plików/);

    const busy = await newSite(path.join(tmp, "target-busy"));
    await migrate(busy.db, { migrationsFolder: DEFAULT_MIGRATIONS_FOLDER });
    await busy.db.execute(
      sql`insert into login_failures (address, email, at) values ('198.51.100.1', 'x@example.org', now())`,
    );
    const dbOnly = await refusal(restoreBackup({ db: busy.db, storage: busy.storage, file: archive }));
    expect(dbOnly).toContain("tabela login_failures (1 wiersz)");
    expect(dbOnly).not.toContain("magazyn plików (");
    await busy.db.execute(sql`delete from login_failures`);

    const storageOnly = await refusal(restoreBackup({ db: busy.db, storage: source.storage, file: archive }));
    expect(storageOnly).toContain("magazyn plików");
    expect(storageOnly).not.toContain("tabela ");
    await expectEmpty(busy);
  }, 120_000);

  it("refuses a corrupted archive before writing anything", async () => {
    const target = await newSite(path.join(tmp, "target-corrupt"));

    // One byte changed inside the compressed archive.
    const flipped = path.join(tmp, "flipped.tar.gz");
    const bytes = await fs.readFile(archive);
    bytes[Math.floor(bytes.length / 2)] ^= 0x5a;
    await fs.writeFile(flipped, bytes);
    expect(await refusal(restoreBackup({ db: target.db, storage: target.storage, file: flipped }))).toMatch(
      /uszkodzone/,
    );
    await expectEmpty(target);

    // A valid tar.gz in which one byte of one photo differs from its checksum.
    const photo = manifest.files.find((f) => f.key.startsWith("galeria/") && f.key.endsWith(".jpg"))!;
    const tampered = path.join(tmp, "tampered.tar.gz");
    await repack(archive, tampered, async (dir) => {
      const file = path.join(dir, "files", photo.key);
      const data = await fs.readFile(file);
      data[data.length >> 1] ^= 0x01;
      await fs.writeFile(file, data);
    });
    const message = await refusal(restoreBackup({ db: target.db, storage: target.storage, file: tampered }));
    expect(message).toContain(`files/${photo.key}: suma kontrolna się nie zgadza`);
    await expectEmpty(target);

    // One character changed in a table's rows.
    const editedRows = path.join(tmp, "edited-rows.tar.gz");
    await repack(archive, editedRows, async (dir) => {
      const file = path.join(dir, "db", "articles.jsonl");
      await fs.writeFile(file, (await fs.readFile(file, "utf8")).replace("Chrzest", "ChrzesT"));
    });
    expect(await refusal(restoreBackup({ db: target.db, storage: target.storage, file: editedRows }))).toContain(
      "db/articles.jsonl: suma kontrolna się nie zgadza",
    );
    await expectEmpty(target);

    // Cut short.
    const truncated = path.join(tmp, "truncated.tar.gz");
    await fs.writeFile(truncated, (await fs.readFile(archive)).subarray(0, Math.floor(bytes.length * 0.7)));
    expect(await refusal(restoreBackup({ db: target.db, storage: target.storage, file: truncated }))).toMatch(
      /uszkodzone|manifestu/,
    );
    await expectEmpty(target);

    // The same repacking without a change passes: the refusals above are the checksums' doing.
    const untouched = path.join(tmp, "untouched.tar.gz");
    await repack(archive, untouched, async () => {});
    expect((await verifyBackup(untouched)).files).toEqual(manifest.files);
  }, 120_000);

  it("refuses an archive made by a newer version of the app", async () => {
    const target = await newSite(path.join(tmp, "target-newer"));
    const newer = path.join(tmp, "newer.tar.gz");
    await repack(archive, newer, async (dir) => {
      const m = JSON.parse(await fs.readFile(path.join(dir, "manifest.json"), "utf8"));
      m.migration = { idx: m.migration.idx + 1, tag: "9999_future", when: m.migration.when + 1000 };
      const text = `${JSON.stringify(m, null, 2)}\n`;
      await fs.writeFile(path.join(dir, "manifest.json"), text);
      const sum = createHash("sha256").update(text).digest("hex");
      await fs.writeFile(path.join(dir, "manifest.json.sha256"), `${sum}  manifest.json\n`);
    });
    const message = await refusal(restoreBackup({ db: target.db, storage: target.storage, file: newer }));
    expect(message).toContain("nowszej wersji aplikacji");
    await expectEmpty(target);
  }, 60_000);

  it("restores an archive from an older migration level and then migrates it", async () => {
    const journal = await readJournal();
    if (journal.length < 2) return; // only one migration: nothing older exists
    // A database left at the first migration, as an older version of the app made it.
    const old = await newSite(path.join(tmp, "old"));
    const folder = path.join(tmp, "migrations-first");
    await fs.mkdir(path.join(folder, "meta"), { recursive: true });
    const full = JSON.parse(await fs.readFile(path.join(DEFAULT_MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8"));
    await fs.writeFile(
      path.join(folder, "meta", "_journal.json"),
      JSON.stringify({ ...full, entries: full.entries.slice(0, 1) }),
    );
    await fs.copyFile(
      path.join(DEFAULT_MIGRATIONS_FOLDER, `${journal[0].tag}.sql`),
      path.join(folder, `${journal[0].tag}.sql`),
    );
    await migrate(old.db, { migrationsFolder: folder });
    await old.db.execute(
      sql`insert into articles (id, header, text, date) values ('1', 'Stary', 'Treść', '2019-01-01')`,
    );
    const oldArchive = path.join(tmp, "old.tar.gz");
    const { manifest: oldManifest } = await createBackup({ db: old.db, storage: old.storage, file: oldArchive });
    expect(oldManifest.migration.tag).toBe(journal[0].tag);

    const target = await newSite(path.join(tmp, "target-old"));
    await restoreBackup({ db: target.db, storage: target.storage, file: oldArchive });
    const after = await snapshot(target.db);
    expect(after.migrations.length).toBe(journal.length);
    // The later migrations ran over the restored rows: every value the old rows
    // had comes back, under columns added since, and an article from before
    // drafts existed is published from when it was made.
    const oldRows = (await snapshot(old.db)).rows.articles.map((r) => JSON.parse(r) as Record<string, unknown>);
    const restored = after.rows.articles.map((r) => JSON.parse(r) as Record<string, unknown>);
    expect(restored).toEqual(oldRows.map((r) => expect.objectContaining(r)));
    expect(restored.every((r) => r.publish_at === r.created_at)).toBe(true);

    // Into a database already past that level it is refused: its rows would skip the later migrations.
    const migrated = await newSite(path.join(tmp, "target-migrated"));
    await migrate(migrated.db, { migrationsFolder: DEFAULT_MIGRATIONS_FOLDER });
    const message = await refusal(restoreBackup({ db: migrated.db, storage: migrated.storage, file: oldArchive }));
    expect(message).toContain("nowsze migracje");
    await expectEmpty(migrated);
  }, 120_000);
});

describe("S3", () => {
  let server: Awaited<ReturnType<typeof startS3>>;
  let s3: S3Storage;
  let s3Target: Site;
  let endpoint: string;

  beforeAll(async () => {
    server = await startS3({ directory: path.join(tmp, "s3rver"), buckets: ["zbor-kopia"] });
    endpoint = server.endpoint;
    s3 = server.storage("zbor-kopia");
  });
  afterAll(async () => {
    await s3Target?.close();
    await s3?.close();
    await server?.close();
  });

  it("restores into S3 and backs up from S3 to the same checksums", async () => {
    s3Target = await newSite(path.join(tmp, "target-s3"), { serve: true, store: s3 });
    await restoreBackup({ db: s3Target.db, storage: s3, file: archive });
    const [before, after] = [await snapshot(source.db), await snapshot(s3Target.db)];
    expect(after.rows).toEqual(before.rows);
    expect(after.sequences).toEqual(before.sequences);
    await expectSameFiles(source.storage, s3);

    const again = path.join(tmp, "z-s3.tar.gz");
    const { manifest: fromS3 } = await createBackup({ db: s3Target.db, storage: s3, file: again });
    expect(fromS3.files).toEqual(manifest.files);
    // Table files are written in key order, so the same rows give the same bytes.
    const digest = (m: BackupManifest) =>
      m.tables.map(({ name, rows, size, sha256 }) => ({ name, rows, size, sha256 }));
    expect(digest(fromS3)).toEqual(digest(manifest));
    expect(fromS3.sequences).toEqual(manifest.sequences);
  }, 120_000);

  describe("the public pages", () => {
    const servers: RunningServer[] = [];
    afterAll(async () => {
      for (const s of servers) await s.stop();
    });

    /** The page as a visitor gets it, minus what differs on every request or per server. */
    async function page(server: RunningServer, pathname: string, filesBase: string) {
      const res = await fetch(`${server.base}${pathname}`);
      const html = await res.text();
      return {
        status: res.status,
        html: html
          .replace(/nonce="[^"]*"/g, 'nonce=""')
          .replaceAll(server.base, "http://server")
          .replaceAll(filesBase, "/pliki")
          // Sharing tags name files absolutely: on the site itself (disk) or in the bucket (S3).
          .replaceAll("http://server/pliki/", "/pliki/"),
      };
    }

    it("are the same, HTML and images, from the source and from both restored sites", async () => {
      // The embedded database can be opened by one process only: hand it to the servers.
      if (!usePostgres) {
        await source.close();
        await diskTarget.close();
        await s3Target.close();
      }
      const s3Env = {
        STORAGE: "s3",
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: endpoint,
        S3_FORCE_PATH_STYLE: "1",
        AWS_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
      };
      const [original, restored, restoredS3] = await Promise.all([
        startBuiltServer(source.env),
        startBuiltServer(diskTarget.env),
        startBuiltServer({ ...s3Target.env, ...s3Env }),
      ]);
      servers.push(original, restored, restoredS3);

      // 1600000000000 is in the bin: missing on every site, restored or not.
      const binnedPage = "/aktualnosci/1600000000000";
      expect((await page(original, binnedPage, "/pliki")).status).toBe(404);
      expect((await page(restored, binnedPage, "/pliki")).status).toBe(404);
      expect((await page(restoredS3, binnedPage, `${endpoint}/${s3.bucket}`)).status).toBe(404);
      const ids = ["1620000000000", "1730000000000", "1735000000000", "1740000000000"];
      const titles = ["Piknik zborowy 2025", "Koncert uwielbienia"];
      const pages = [
        "/",
        "/aktualnosci",
        ...ids.map((id) => `/aktualnosci/${id}`),
        "/galeria",
        ...titles.map((t) => `/galeria/${encodeURIComponent(t)}`),
        "/onas",
      ];
      const s3Base = `${endpoint}/${s3.bucket}`;
      for (const pathname of pages) {
        const want = await page(original, pathname, "/pliki");
        expect(want.status, pathname).toBe(200);
        expect(await page(restored, pathname, "/pliki"), pathname).toEqual(want);
        expect(await page(restoredS3, pathname, s3Base), pathname).toEqual(want);
      }
      // The extra article's text is on its page, escaped, as it was written.
      const extra = (await page(original, "/aktualnosci/1620000000000", "/pliki")).html;
      expect(extra).toContain("Zażółć gęślą jaźń");
      expect(extra).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");

      // Every image the pages show comes out of each site with the original bytes;
      // a kept form's file is restored too, and never served.
      for (const { key } of manifest.files) {
        const want = await readAll(storage(), key);
        if (isPrivateKey(key)) {
          for (const base of [original.base, restored.base]) {
            expect((await fetch(`${base}/pliki/${key}`)).status, key).toBe(404);
          }
          expect((await readAll(s3, key)).equals(want), key).toBe(true);
          continue;
        }
        for (const url of [`${original.base}/pliki/${key}`, `${restored.base}/pliki/${key}`, s3.publicUrl(key)]) {
          const res = await fetch(url);
          expect(res.status, url).toBe(200);
          expect(Buffer.from(await res.arrayBuffer()).equals(want), url).toBe(true);
        }
      }
    }, 180_000);
  });
});

describe("command line", () => {
  const cli = (command: string, args: string[], env: Record<string, string>) =>
    run(process.execPath, ["--import", "tsx", "scripts/zbor.ts", command, ...args], {
      env: {
        ...process.env,
        DATABASE_URL: "",
        NODE_ENV: "production",
        ...env,
      },
      timeout: 90_000,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  it("restores into and backs up from the embedded database, refusing while the server runs", async () => {
    const dataDir = path.join(tmp, "cli");
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port) };

    const restored = await cli("restore", [archive], env);
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(`Przywrócono kopię z ${manifest.createdAt}`);

    // Something answers on PORT: the server would own the embedded database.
    const listener = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => listener.listen(port, "127.0.0.1", resolve));
    const out = path.join(tmp, "cli-kopia.tar.gz");
    try {
      const refused = await cli("backup", [out], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`Serwer działa na porcie ${port}`);
      const refusedRestore = await cli("restore", [archive], env);
      expect(refusedRestore.code).toBe(1);
      expect(refusedRestore.stderr).toContain(`Serwer działa na porcie ${port}`);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
    await expect(fs.stat(out)).rejects.toThrow();

    const backedUp = await cli("backup", [out], env);
    expect(backedUp.stderr).toBe("");
    expect(backedUp.code).toBe(0);
    const again = await verifyBackup(out);
    expect(again.files).toEqual(manifest.files);
    const digest = (m: BackupManifest) => m.tables.map(({ name, rows, sha256 }) => ({ name, rows, sha256 }));
    expect(digest(again)).toEqual(digest(manifest));

    // A second restore into the same, now full, site names what is there.
    const twice = await cli("restore", [out], env);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain("tabela articles (7 wierszy)");

    expect((await cli("backup", [], env)).stderr).toContain("Użycie: zbor backup");
  }, 180_000);
});
