// Two built servers on one PostgreSQL database and one S3 bucket (an s3rver
// started here), as a container platform runs several instances behind a
// load balancer: whatever one instance does, the other sees. Requests
// alternate between them as a balancer would send them.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTENT_CHECK_MS } from "~/services/content-version.server";
import { createScratchDatabase, postgresAvailable } from "../setup/database";
import { type RunningServer, freePort, startBuiltServer } from "./server";

const BUCKET = "zbor";
const ADMIN = { email: "pastor@example.org", password: "haslo-dwoch-instancji-123" };
const LOCKED = "Zbyt wiele nieudanych prób logowania";

const hasPostgres = await postgresAvailable();

let dir: string;
let s3rver: S3rver;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let a: RunningServer;
let b: RunningServer;

/** A browser: its cookies, whichever instance answers. */
class Client {
  cookies = new Map<string, string>();

  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async fetch(server: RunningServer, pathname: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("Cookie", this.header());
    if (init.method === "POST") headers.set("Origin", server.base);
    const res = await fetch(`${server.base}${pathname}`, { ...init, headers, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const [name, value] = pair.split("=");
      const gone = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /expires=thu, 01 jan 1970/i.test(a));
      if (gone || value === "") this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    return res;
  }

  /** The CSRF token of a page, read as the browser's form would send it. */
  async token(server: RunningServer, pathname: string) {
    const res = await this.fetch(server, pathname);
    expect(res.status, `GET ${pathname}`).toBe(200);
    const token = /name="csrf" value="([^"]+)"/.exec(await res.text())?.[1];
    if (!token) throw new Error(`no csrf field on ${pathname}`);
    return token;
  }

  async post(server: RunningServer, pathname: string, fields: Record<string, string | File>, tokenFrom = pathname) {
    const form = new FormData();
    form.append("csrf", await this.token(server, tokenFrom));
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return this.fetch(server, pathname, { method: "POST", body: form });
  }

  async signIn(server: RunningServer, password = ADMIN.password) {
    return this.post(server, "/strefapastora/logowanie", { email: ADMIN.email, password });
  }
}

async function photo(name: string) {
  const data = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#446688" } })
    .jpeg()
    .toBuffer();
  return new File([data], name, { type: "image/jpeg" });
}

/** Reads a public page on `server` until it shows `text`, for at most `ms`. */
async function seenWithin(server: RunningServer, pathname: string, text: string, ms: number) {
  const deadline = Date.now() + ms;
  for (;;) {
    const html = await (await fetch(`${server.base}${pathname}`)).text();
    if (html.includes(text)) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.runIf(hasPostgres)("two instances on one database and one bucket", () => {
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-two-"));
    const port = await freePort();
    s3rver = new S3rver({
      address: "127.0.0.1",
      port,
      silent: true,
      directory: dir,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    await s3rver.run();
    scratch = await createScratchDatabase("two_instances");
    const env = {
      DATABASE_URL: scratch.url,
      STORAGE: "s3",
      S3_BUCKET: BUCKET,
      S3_REGION: "us-east-1",
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_FORCE_PATH_STYLE: "1",
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    };
    // Started together, as a platform starts them: migrations run under an advisory lock.
    [a, b] = await Promise.all([startBuiltServer(env), startBuiltServer(env)]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await scratch?.drop();
    await s3rver?.close().catch(() => {});
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("a session begun on A works on B, and signing out on A ends it on B", async () => {
    const pastor = new Client();
    expect((await pastor.signIn(a)).status).toBe(302);
    const onB = await pastor.fetch(b, "/strefapastora");
    expect(onB.status).toBe(200);
    expect(await onB.text()).toContain(ADMIN.email);

    // A copy of the cookie taken before signing out: the browser drops its
    // own, so only the copy shows that the session itself has ended.
    const copy = new Client();
    copy.cookies = new Map(pastor.cookies);
    const out = await pastor.post(a, "/strefapastora/wyloguj", {}, "/strefapastora");
    expect(out.status).toBe(302);
    for (const client of [pastor, copy]) {
      const res = await client.fetch(b, "/strefapastora");
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/strefapastora/logowanie");
    }
  });

  it("an album started on A is finished on B, and both show it", async () => {
    const pastor = new Client();
    expect((await pastor.signIn(b)).status).toBe(302);
    const started = await pastor.post(a, "/strefapastora/galeria/dodaj", {
      title: "Album dwóch instancji",
      description: "Zaczęty na jednej, skończony na drugiej.",
      date: "2025-03-01",
      zdjecia: await photo("pierwsze.jpg"),
      intent: "upload",
    });
    expect(started.status).toBe(302);
    const draftPage = started.headers.get("Location")!;
    expect(draftPage).toMatch(/\?szkic=/);

    const saved = await pastor.post(b, draftPage, { intent: "save" });
    expect(saved.status).toBe(302);
    const albumPath = `/galeria/${encodeURIComponent("Album dwóch instancji")}`;
    for (const server of [a, b]) {
      const html = await (await fetch(`${server.base}${albumPath}`)).text();
      expect(html).toContain("Zaczęty na jednej, skończony na drugiej.");
      // The photo stored by A is served from the shared bucket.
      const src = /<img[^>]+src="([^"]+)"[^>]*alt="Zdjęcie 1 z galerii/.exec(html)?.[1];
      expect(src).toBeTruthy();
      const file = await fetch(new URL(src!, server.base));
      expect(file.status).toBe(200);
    }
  });

  it("a save on one instance shows on the other's public pages within a second", async () => {
    const pastor = new Client();
    expect((await pastor.signIn(a)).status).toBe(302);
    // Both have rendered the news list before the save.
    for (const server of [a, b]) await fetch(`${server.base}/aktualnosci`);
    const added = await pastor.post(a, "/strefapastora/artykuly/dodaj", {
      header: "Nowina z instancji A",
      text: "Widać ją także na drugiej.",
      date: "2025-04-04",
      image: await photo("nowina.jpg"),
    });
    expect(added.status).toBe(302);
    expect(await seenWithin(b, "/aktualnosci", "Nowina z instancji A", CONTENT_CHECK_MS + 500)).toBe(true);
    expect(await seenWithin(b, "/aktualnosci/rss.xml", "Nowina z instancji A", CONTENT_CHECK_MS + 500)).toBe(true);
  });

  // Last but one: the lock-out holds for this address and e-mail from then on.
  it("five failed sign-ins spread over A and B lock the client out on both", async () => {
    const guesser = new Client();
    for (let i = 0; i < 5; i++) {
      const res = await guesser.signIn(i % 2 ? b : a, `zle-haslo-${i}-xxxxxx`);
      expect(res.status, `failure ${i + 1}`).toBe(400);
    }
    for (const server of [a, b]) {
      const res = await guesser.signIn(server);
      expect(res.status).toBe(429);
      expect(await res.text()).toContain(LOCKED);
    }
  });

  it("SIGTERM to one instance loses no request that a client retries on the other", async () => {
    const servers = [a, b];
    let failedOver = 0;
    // A client that, like a balancer's retry, sends a refused request to the other instance.
    async function get(i: number) {
      const first = servers[i % 2];
      try {
        const res = await fetch(`${first.base}/aktualnosci`);
        if (res.status !== 503) return res.status;
      } catch {
        // Connection refused or reset: the instance is going away.
      }
      failedOver++;
      return (await fetch(`${servers[(i + 1) % 2].base}/aktualnosci`)).status;
    }
    const statuses: Promise<number>[] = [];
    for (let i = 0; i < 30; i++) {
      statuses.push(get(i));
      if (i === 10) a.child.kill("SIGTERM");
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await a.exited).toBe(0);
    // Some more once A is gone for sure: every other one is sent to A first.
    for (let i = 30; i < 40; i++) statuses.push(get(i));
    expect(await Promise.all(statuses)).toEqual(Array(40).fill(200));
    // The requests sent after A stopped listening went to B.
    expect(failedOver).toBeGreaterThan(0);
  });
});
