// The built server storing photos in S3 (an s3rver started here), which is
// stopped in the middle of an article save: the pastor gets a Polish
// message with the form as typed, the article stays as it was, and no row
// points to a file that does not exist.
import { execFile } from "node:child_process";
import type { EventEmitter } from "node:events";
import fs from "node:fs/promises";
import type http from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import S3rver from "s3rver";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allKeys } from "~/lib/image-variants";
import { type S3Storage, s3Storage } from "~/services/storage.server";
import { allowConsoleError } from "../helpers";
import { createScratchDatabase, postgresAvailable } from "../setup/database";
import { freePort, type RunningServer, startBuiltServer } from "./server";

const BUCKET = "zbor";
const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
const ADMIN = { email: "pastor@example.org", password: "haslo-awarii-123" };
const STORAGE_FAILED = "Nie udało się zapisać zdjęcia. Spróbuj ponownie.";

const hasPostgres = await postgresAvailable();

let dir: string;
let port: number;
let s3rver: S3rver;
let stopping: Promise<void> | null = null;
let stopAfterPuts: number | null = null;
// Objects stored since the last reset: shows the save had begun when storage stopped.
let stored = 0;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let sql: postgres.Sql;
let server: RunningServer;
let store: S3Storage;
let cookie = "";

async function startStorage() {
  s3rver = new S3rver({
    address: "127.0.0.1",
    port,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  await s3rver.run();
  // After the chosen number of stored objects, the storage goes away at
  // once, dropping the connection still waiting for its answer.
  (s3rver as unknown as EventEmitter).on("event", () => {
    stored++;
    if (stopAfterPuts === null || --stopAfterPuts > 0) return;
    stopAfterPuts = null;
    void stopStorage();
  });
}

function stopStorage() {
  // s3rver's logger writes to console.error when a request ends after close.
  allowConsoleError();
  stopping = s3rver.close();
  (s3rver as unknown as { httpServer: http.Server }).httpServer.closeAllConnections();
  return stopping;
}

async function restartStorage() {
  await stopping;
  stopping = null;
  await startStorage();
}

function csrfIn(html: string): string {
  const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error("no csrf field in the page");
  return token;
}

function cookiesOf(res: Response): string[] {
  return res.headers.getSetCookie().map((line) => line.split(";")[0]);
}

async function signIn() {
  const page = await fetch(`${server.base}/strefapastora/logowanie`);
  const loginCookie = cookiesOf(page).join("; ");
  const res = await fetch(`${server.base}/strefapastora/logowanie`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.base, Cookie: loginCookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf: csrfIn(await page.text()), ...ADMIN }),
  });
  expect(res.status).toBe(302);
  cookie = cookiesOf(res).join("; ");
}

async function pageToken(pathname: string) {
  const res = await fetch(`${server.base}${pathname}`, { headers: { Cookie: cookie } });
  expect(res.status).toBe(200);
  return csrfIn(await res.text());
}

async function jpeg(name: string, width = 1600, height = 1200) {
  const data = await sharp({ create: { width, height, channels: 3, background: "#557799" } })
    .jpeg()
    .toBuffer();
  return new File([data], name, { type: "image/jpeg" });
}

async function submit(pathname: string, fields: Record<string, string | File>, { script = false } = {}) {
  const body = new FormData();
  body.append("csrf", await pageToken(pathname));
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  // The page's upload route, where its script sends the same form.
  const url = `${server.base}${pathname}${script ? "/wyslij" : ""}`;
  return fetch(url, { method: "POST", redirect: "manual", headers: { Origin: server.base, Cookie: cookie }, body });
}

interface Row {
  id: string;
  header: string;
  text: string;
  date: string;
  image_key: string | null;
  image_width: number | null;
  image_height: number | null;
}

const rows = () =>
  sql<Row[]>`select id, header, text, date, image_key, image_width, image_height from articles order by id`;

async function missingFiles() {
  const missing: string[] = [];
  for (const r of await rows()) {
    if (!r.image_key || !r.image_width) continue;
    for (const key of allKeys(r.image_key, r.image_width)) if (!(await store.exists(key))) missing.push(key);
  }
  return missing;
}

describe.runIf(hasPostgres)("S3 storage stopped during an article save", () => {
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-s3-outage-"));
    port = await freePort();
    await startStorage();
    scratch = await createScratchDatabase("s3outage");
    sql = postgres(scratch.url, { max: 2, onnotice: () => {} });
    const endpoint = `http://127.0.0.1:${port}`;
    server = await startBuiltServer({
      DATABASE_URL: scratch.url,
      STORAGE: "s3",
      S3_BUCKET: BUCKET,
      S3_REGION: "us-east-1",
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: "1",
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    });
    store = s3Storage({
      bucket: BUCKET,
      region: "us-east-1",
      endpoint,
      forcePathStyle: true,
      credentials: CREDENTIALS,
    });
    await signIn();
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await sql?.end();
    await scratch?.drop();
    await store?.close();
    await s3rver?.close().catch(() => {});
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("adding: the form comes back with the message and what was typed; nothing is saved", async () => {
    const before = await submit("/strefapastora/artykuly/dodaj", {
      image: await jpeg("przed.jpg"),
      header: "Przed awarią",
      text: "Zapisane.",
      date: "2025-01-01",
    });
    expect(before.status).toBe(302);

    stored = 0;
    stopAfterPuts = 1;
    const res = await submit("/strefapastora/artykuly/dodaj", {
      image: await jpeg("w-czasie.jpg"),
      header: "Nagłówek w czasie awarii",
      text: "Treść, której nie wolno zgubić.",
      date: "2025-02-02",
    });
    expect(res.status).toBe(503);
    expect(stored).toBe(1);
    const html = await res.text();
    expect(html).toContain(STORAGE_FAILED);
    expect(html).toContain('value="Nagłówek w czasie awarii"');
    expect(html).toContain(">Treść, której nie wolno zgubić.</textarea>");
    expect(html).toContain('value="2025-02-02"');

    await restartStorage();
    expect((await rows()).map((r) => r.header)).toEqual(["Przed awarią"]);
    expect(await missingFiles()).toEqual([]);
  });

  it("adding with JavaScript (the upload route): the JSON refusal carries the message", async () => {
    stored = 0;
    stopAfterPuts = 2;
    const res = await submit(
      "/strefapastora/artykuly/dodaj",
      { image: await jpeg("js.jpg"), header: "Z JavaScriptem", text: "Treść", date: "2025-03-03" },
      { script: true },
    );
    expect(res.status).toBe(503);
    expect(stored).toBe(2);
    expect(await res.json()).toMatchObject({
      refused: { error: STORAGE_FAILED, values: { header: "Z JavaScriptem" } },
    });
    await restartStorage();
    expect((await rows()).map((r) => r.header)).toEqual(["Przed awarią"]);
    expect(await missingFiles()).toEqual([]);
  });

  it("replacing the photo: the article stays exactly as it was, old photo included", async () => {
    const [article] = await rows();
    stored = 0;
    stopAfterPuts = 1;
    const res = await submit(`/strefapastora/artykuly/edytuj/${article.id}`, {
      header: "Zmieniony w czasie awarii",
      date: "2025-04-04",
      text: "Nowa treść",
      changeImage: "1",
      image: await jpeg("nowe.jpg", 1200, 1600),
    });
    expect(res.status).toBe(503);
    expect(stored).toBe(1);
    const html = await res.text();
    expect(html).toContain(STORAGE_FAILED);
    expect(html).toContain('value="Zmieniony w czasie awarii"');

    await restartStorage();
    expect(await rows()).toEqual([article]);
    expect(await missingFiles()).toEqual([]);
    // The page still shows the old photo, which loads.
    const page = await fetch(`${server.base}/aktualnosci/${article.id}`);
    expect(await page.text()).toContain(article.image_key!.replace(/\.jpg$/, ""));
    expect((await fetch(store.publicUrl(article.image_key!))).status).toBe(200);
  });

  it("the files the interrupted saves could not remove are found by `npm run sweep` and removed", async () => {
    const env = {
      ...process.env,
      DATABASE_URL: scratch.url,
      STORAGE: "s3",
      S3_BUCKET: BUCKET,
      S3_REGION: "us-east-1",
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_FORCE_PATH_STYLE: "1",
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    };
    const sweep = (...args: string[]) =>
      promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/sweep.ts", "--older-than", "0", ...args], {
        env,
      });
    const named = new Set((await rows()).flatMap((r) => (r.image_key ? allKeys(r.image_key, r.image_width!) : [])));
    const leftovers = (await store.list("")).map((f) => f.key).filter((k) => !named.has(k));
    // Each of the three saves stored a file before the storage went away, and could not remove it.
    expect(leftovers.length).toBeGreaterThanOrEqual(3);

    const dry = await sweep();
    for (const key of leftovers) expect(dry.stdout).toContain(key);
    expect((await store.list("")).length).toBe(named.size + leftovers.length);

    await sweep("--apply");
    expect((await store.list("")).map((f) => f.key).sort()).toEqual([...named].sort());
    expect(await missingFiles()).toEqual([]);
  });
});
