// Uploads over a weak signal, against the built server: a photo whose
// connection is cut half-way leaves no file, no temporary file and no draft
// behind; a retried upload whose first try did arrive (the answer was lost)
// adds the photo once.
import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScratchDatabase, postgresAvailable } from "../setup/database";
import { type RunningServer, startBuiltServer } from "./server";

const ADMIN = { email: "pastor@example.org", password: "haslo-zasiegu-123" };
const PHOTOS = "/strefapastora/galeria/dodaj/zdjecia";
const hasPostgres = await postgresAvailable();

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let sql: postgres.Sql;
let server: RunningServer;
let tmp: string;
let cookie = "";
let csrf = "";

const cookiesOf = (res: Response) => res.headers.getSetCookie().map((line) => line.split(";")[0]);
const csrfIn = (html: string) => {
  const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error("no csrf field in the page");
  return token;
};

async function signIn() {
  const page = await fetch(`${server.base}/strefapastora/logowanie`);
  const res = await fetch(`${server.base}/strefapastora/logowanie`, {
    method: "POST",
    redirect: "manual",
    headers: {
      Origin: server.base,
      Cookie: cookiesOf(page).join("; "),
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ csrf: csrfIn(await page.text()), ...ADMIN }),
  });
  expect(res.status).toBe(302);
  cookie = cookiesOf(res).join("; ");
  const editor = await fetch(`${server.base}/strefapastora/galeria/dodaj`, { headers: { Cookie: cookie } });
  csrf = csrfIn(await editor.text());
}

async function photoBody(uploadId: string, draftId?: string) {
  const data = await sharp({
    create: {
      width: 800,
      height: 600,
      channels: 3,
      background: "#000",
      noise: { type: "gaussian", mean: 128, sigma: 60 },
    },
  })
    .jpeg({ quality: 95 })
    .toBuffer();
  const form = new FormData();
  form.append("csrf", csrf);
  if (draftId) form.append("szkic", draftId);
  form.append("title", "Zasięg");
  form.append("date", "2026-11-01");
  form.append("intent", "upload");
  form.append("uploadId", uploadId);
  form.append("zdjecia", new File([data], "IMG_0001.jpg", { type: "image/jpeg" }));
  const request = new Request("http://x/", { method: "POST", body: form });
  return { type: request.headers.get("Content-Type")!, bytes: Buffer.from(await request.arrayBuffer()) };
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** Sends the headers and the first half of the body, then drops the connection. */
function cutHalfWay(body: { type: string; bytes: Buffer }): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(`${server.base}${PHOTOS}`, {
      method: "POST",
      headers: {
        Origin: server.base,
        Cookie: cookie,
        "X-CSRF-Token": csrf,
        Accept: "application/json",
        "Content-Type": body.type,
        "Content-Length": String(body.bytes.length),
      },
    });
    req.on("error", () => resolve());
    req.on("close", () => resolve());
    req.write(body.bytes.subarray(0, body.bytes.length >> 1), () => setImmediate(() => req.destroy()));
  });
}

const post = (body: { type: string; bytes: Buffer }) =>
  fetch(`${server.base}${PHOTOS}`, {
    method: "POST",
    headers: {
      Origin: server.base,
      Cookie: cookie,
      "X-CSRF-Token": csrf,
      Accept: "application/json",
      "Content-Type": body.type,
    },
    body: new Uint8Array(body.bytes),
  });

describe.runIf(hasPostgres)("photo uploads over a weak signal", () => {
  beforeAll(async () => {
    scratch = await createScratchDatabase("cutupload");
    sql = postgres(scratch.url, { max: 2, onnotice: () => {} });
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-cut-upload-"));
    server = await startBuiltServer({
      DATABASE_URL: scratch.url,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      // The server's temporary upload files land here, where the test can see them.
      TMPDIR: tmp,
    });
    await signIn();
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await sql?.end({ timeout: 1 });
    await scratch?.drop();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it("a photo cut off half-way leaves no file, no temporary file and no draft", async () => {
    await cutHalfWay(await photoBody("cut-1"));
    // The server notices the closed connection on its own time: wait until its
    // temporary folder is gone, then look at everything else.
    await expect.poll(() => filesUnder(tmp), { timeout: 10_000 }).toEqual([]);
    // The server still answers, and only then is its work on the cut request over.
    expect((await fetch(`${server.base}/readyz`)).status).toBeLessThan(500);
    expect(await sql`select id from gallery_drafts`).toEqual([]);
    expect(await sql`select id from gallery_draft_images`).toEqual([]);
    expect(await filesUnder(path.join(server.dataDir, "uploads"))).toEqual([]);
  });

  it("a retried upload whose first try arrived adds the photo once", async () => {
    const first = await post(await photoBody("retry-1"));
    expect(first.status).toBe(200);
    const answer = (await first.json()) as { draftId: string; results: { ok: boolean; image: { key: string } }[] };
    const stored = await filesUnder(path.join(server.dataDir, "uploads"));
    expect(stored.length).toBeGreaterThan(0);

    // The browser never saw that answer and sends the same file again.
    const again = await post(await photoBody("retry-1", answer.draftId));
    expect(again.status).toBe(200);
    const second = (await again.json()) as typeof answer;
    expect(second.draftId).toBe(answer.draftId);
    expect(second.results.map((r) => r.image.key)).toEqual([answer.results[0].image.key]);
    expect(await sql`select image_key from gallery_draft_images`).toEqual([{ image_key: answer.results[0].image.key }]);
    // The second copy's files are not kept.
    expect((await filesUnder(path.join(server.dataDir, "uploads"))).sort()).toEqual(stored.sort());

    // Another file (another upload id) is a photo of its own.
    const other = await post(await photoBody("retry-2", answer.draftId));
    expect(other.status).toBe(200);
    expect(await sql`select count(*)::int as n from gallery_draft_images`).toEqual([{ n: 2 }]);
  });
});
