// Two built servers on one PostgreSQL database and one S3 bucket (s3rver),
// as a platform runs several instances behind a load balancer. Requests
// alternate between them: everything a pastor or a visitor relies on is in
// the database and the bucket, never in one process.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTENT_CHECK_MS } from "~/services/content-version.server";
import { createScratchDatabase, postgresAvailable, postgresRequired } from "../setup/database";
import { type RunningServer, startBuiltServer } from "./server";
import { S3_CREDENTIALS, startS3 } from "../s3";

const hasPostgres = (await postgresAvailable()) || postgresRequired;

const BUCKET = "zbor";
const ADMIN = { email: "pastor@example.org", password: "haslo-dwoch-serwerow" };
const LOCKED = /Zbyt wiele nieudanych prób logowania/;

let s3Dir = "";
let s3rver: Awaited<ReturnType<typeof startS3>>;
let s3Base = "";
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let a: RunningServer;
let b: RunningServer;
let env: Record<string, string>;

const cookiesOf = (res: Response) => res.headers.getSetCookie().map((line) => line.split(";")[0]);

function csrfIn(html: string): string {
  const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error("no csrf field in the page");
  return token;
}

/** A browser's cookie jar, whichever instance answers. */
class Browser {
  private jar = new Map<string, string>();
  get cookie() {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  keep(res: Response) {
    for (const pair of cookiesOf(res)) {
      const i = pair.indexOf("=");
      const value = pair.slice(i + 1);
      if (value) this.jar.set(pair.slice(0, i), value);
      else this.jar.delete(pair.slice(0, i));
    }
    return res;
  }
  async get(server: RunningServer, pathname: string) {
    return this.keep(
      await fetch(`${server.base}${pathname}`, { redirect: "manual", headers: { Cookie: this.cookie } }),
    );
  }
  async post(server: RunningServer, pathname: string, body: FormData | URLSearchParams) {
    return this.keep(
      await fetch(`${server.base}${pathname}`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: server.base, Cookie: this.cookie },
        body,
      }),
    );
  }
  /** The sign-in form posted on `server` (its token taken from that server's page). */
  async signIn(server: RunningServer, password = ADMIN.password) {
    const page = await this.get(server, "/strefapastora/logowanie");
    const csrf = csrfIn(await page.text());
    return this.post(server, "/strefapastora/logowanie", new URLSearchParams({ csrf, email: ADMIN.email, password }));
  }
  /** The session's form token, read from a pastor page on `server`. */
  async token(server: RunningServer, pathname = "/strefapastora") {
    const res = await this.get(server, pathname);
    expect(res.status, pathname).toBe(200);
    return csrfIn(await res.text());
  }
}

const form = (fields: Record<string, string | File>) => {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
};

async function jpeg(name: string) {
  const data = await sharp({ create: { width: 1200, height: 900, channels: 3, background: "#7a5" } })
    .jpeg()
    .toBuffer();
  return new File([data], name, { type: "image/jpeg" });
}

describe.runIf(hasPostgres)("two instances, one database, one bucket", () => {
  beforeAll(async () => {
    s3Dir = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-two-s3-"));
    s3rver = await startS3({ directory: s3Dir, buckets: [BUCKET] });
    s3Base = `${s3rver.endpoint}/${BUCKET}`;
    scratch = await createScratchDatabase("two");
    env = {
      DATABASE_URL: scratch.url,
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: s3rver.endpoint,
      S3_FORCE_PATH_STYLE: "1",
      AWS_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    };
    // Started together: one migrates under the lock, the other waits for it.
    [a, b] = await Promise.all([startBuiltServer(env), startBuiltServer(env)]);
  }, 180_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await scratch?.drop();
    await s3rver?.close();
    if (s3Dir) await fs.rm(s3Dir, { recursive: true, force: true });
  });

  it("a session made on A works on B, and signing out on A ends it on B", async () => {
    const pastor = new Browser();
    expect((await pastor.signIn(a)).status).toBe(302);
    const panel = await pastor.get(b, "/strefapastora");
    expect(panel.status).toBe(200);
    expect(await panel.text()).toContain(ADMIN.email);

    const csrf = await pastor.token(b);
    const signedIn = pastor.cookie;
    const out = await pastor.post(a, "/strefapastora/wyloguj", new URLSearchParams({ csrf }));
    expect(out.status).toBe(302);
    // The old cookie, replayed on B, no longer opens the panel.
    const stale = await fetch(`${b.base}/strefapastora`, {
      redirect: "manual",
      headers: { Cookie: signedIn },
    });
    expect(stale.headers.get("Location")).toBe("/strefapastora/logowanie");
  });

  it("an album started on A is finished on B", async () => {
    const pastor = new Browser();
    expect((await pastor.signIn(b)).status).toBe(302);
    const title = "Album dwóch serwerów";
    const started = await pastor.post(
      a,
      "/strefapastora/galeria/dodaj",
      form({
        csrf: await pastor.token(a, "/strefapastora/galeria/dodaj"),
        title,
        description: "Zaczęty na jednym, skończony na drugim.",
        date: "2026-05-01",
        intent: "upload",
        zdjecia: await jpeg("pierwsze.jpg"),
      }),
    );
    expect(started.status).toBe(302);
    const draftUrl = started.headers.get("Location")!;
    expect(draftUrl).toMatch(/^\/strefapastora\/galeria\/dodaj\?szkic=/);

    // B shows the draft A keeps, photo included, and saves it.
    const draft = await pastor.get(b, draftUrl);
    expect(draft.status).toBe(200);
    const html = await draft.text();
    expect(html).toContain(`value="${title}"`);
    expect(html).toContain("pierwsze");
    const saved = await pastor.post(
      b,
      draftUrl,
      form({ csrf: csrfIn(html), title, description: "Zaczęty na jednym, skończony na drugim.", intent: "save" }),
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(`/strefapastora/galeria/${encodeURIComponent(title)}`);

    // Both show it to visitors, with its photo from the bucket.
    for (const server of [a, b]) {
      const page = await fetch(`${server.base}/galeria/${encodeURIComponent(title)}`);
      expect(page.status, server.base).toBe(200);
      const photo = new RegExp(`${s3Base}/[^"\\s]+\\.(?:jpg|webp|avif)`).exec(await page.text())?.[0];
      expect(photo, server.base).toBeTruthy();
      expect((await fetch(photo!)).status).toBe(200);
    }
  });

  it("a save on one instance is on the other's public pages within a second", async () => {
    const pastor = new Browser();
    expect((await pastor.signIn(a)).status).toBe(302);
    for (const [writer, reader] of [
      [a, b],
      [b, a],
    ]) {
      const header = `Wiadomość zapisana na ${writer === a ? "A" : "B"}`;
      // The reader has the list in its page cache before the save.
      expect(await (await fetch(`${reader.base}/aktualnosci`)).text()).not.toContain(header);
      const res = await pastor.post(
        writer,
        "/strefapastora/artykuly/dodaj",
        form({
          csrf: await pastor.token(writer, "/strefapastora/artykuly/dodaj"),
          header,
          text: "Treść widoczna na obu serwerach.",
          date: "2026-05-02",
          image: await jpeg("wiadomosc.jpg"),
        }),
      );
      expect(res.status).toBe(302);
      const savedAt = Date.now();
      // Looked at until it shows, or until a request starts after the bound:
      // that one must show it, however slow the machine is.
      for (;;) {
        const startedAt = Date.now();
        const shown = (await (await fetch(`${reader.base}/aktualnosci`)).text()).includes(header);
        if (shown) break;
        expect(startedAt - savedAt, `${reader.base} still serves the old list`).toBeLessThanOrEqual(CONTENT_CHECK_MS);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  });

  it("the congregation's facts saved on one instance are on the other's pages within a second", async () => {
    const pastor = new Browser();
    expect((await pastor.signIn(a)).status).toBe(302);
    for (const [writer, reader] of [
      [a, b],
      [b, a],
    ]) {
      const footerName = `Zbór zapisany na ${writer === a ? "A" : "B"}`;
      // The reader has the page in its page cache, and the facts in memory, before the save.
      expect(await (await fetch(`${reader.base}/kontakt`)).text()).not.toContain(footerName);
      const page = await (await pastor.get(writer, "/strefapastora/dane-zboru")).text();
      const version = /name="version" value="(\d+)"/.exec(page)![1];
      const res = await pastor.post(
        writer,
        "/strefapastora/dane-zboru",
        new URLSearchParams({ csrf: csrfIn(page), version, footerName }),
      );
      expect(res.status).toBe(302);
      const savedAt = Date.now();
      for (;;) {
        const startedAt = Date.now();
        if ((await (await fetch(`${reader.base}/kontakt`)).text()).includes(footerName)) break;
        expect(startedAt - savedAt, `${reader.base} still shows the old facts`).toBeLessThanOrEqual(CONTENT_CHECK_MS);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  });

  // Last but one: the lock then holds for this address and e-mail, whatever the cookies.
  it("a form posted after the session secret was replaced is kept for the pastor's browser", async () => {
    const pastor = new Browser();
    expect((await pastor.signIn(a)).status).toBe(302);
    const csrf = await pastor.token(a, "/strefapastora/artykuly/dodaj");
    // An instance whose session secret is a new one, the old dropped: every
    // session cookie made before is unreadable there.
    const rotated = await startBuiltServer({ ...env, SESSION_SECRET: "replaced-secret-replaced-secret-replaced" });
    try {
      const posted = await pastor.post(
        rotated,
        "/strefapastora/artykuly/dodaj",
        form({ csrf, header: "Po zmianie klucza", text: "Tekst pisany, gdy klucz się zmienił.", date: "2026-11-24" }),
      );
      expect(posted.status).toBe(302);
      const signInPage = new URL(posted.headers.get("location")!, rotated.base);
      expect(signInPage.pathname).toBe("/strefapastora/logowanie");
      const back = signInPage.searchParams.get("redirectTo")!;
      expect(back).toMatch(/^\/strefapastora\/artykuly\/dodaj\?zachowane=[\w-]{43}$/);

      expect((await pastor.signIn(rotated)).status).toBe(302);
      const page = await pastor.get(rotated, back);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain("Sesja wygasła, zanim zapisano zmiany.");
      expect(html).toContain("Tekst pisany, gdy klucz się zmienił.");
    } finally {
      await rotated.stop();
    }
  });

  it("five failed sign-ins spread over A and B lock the browser out on both", async () => {
    const guesser = new Browser();
    for (const server of [a, b, a, b, a]) {
      const res = await guesser.signIn(server, "zle-haslo-0000");
      expect(res.status, server.base).toBe(400);
      expect(await res.text()).toContain("Niepoprawne dane logowania!");
    }
    for (const server of [b, a]) {
      const res = await guesser.signIn(server);
      expect(await res.text(), server.base).toMatch(LOCKED);
    }
  });

  it("a SIGTERM to one instance while the other serves loses no request a client retries", async () => {
    const servers = [a, b];
    let answered = 0;
    let retried = 0;
    /** A client of a load balancer: a refused or broken request goes to the other instance. */
    async function visit(i: number) {
      for (let attempt = 0; attempt < 2; attempt++) {
        const server = servers[(i + attempt) % 2];
        try {
          const res = await fetch(`${server.base}/aktualnosci`);
          const body = await res.text();
          if (res.status === 200 && body.includes("</html>")) {
            answered++;
            return;
          }
        } catch {}
        retried++;
      }
      throw new Error(`request ${i} failed on both instances`);
    }
    // Eight clients keep asking; A is stopped while they do.
    let next = 0;
    const total = 160;
    const clients = Array.from({ length: 8 }, async () => {
      while (next < total) await visit(next++);
    });
    const stopped = (async () => {
      while (next < total / 4) await new Promise((resolve) => setTimeout(resolve, 10));
      a.child.kill("SIGTERM");
      return a.exited;
    })();
    await Promise.all(clients);
    expect(await stopped).toBe(0);
    expect(answered).toBe(total);
    // B alone answers once A is gone.
    expect((await fetch(`${b.base}/readyz`)).status).toBe(200);
    expect(retried, "requests sent to A after it stopped went to B").toBeGreaterThan(0);
  });
});
