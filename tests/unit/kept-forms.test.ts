// Forms posted after their session ended (kept for the pastor's own browser)
// and saves refused over a newer version: the article routes as Remix calls
// them, real database and storage.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { articles, devices, galleries, galleryDrafts, keptForms, sessions, users } from "~/services/schema";
import { db } from "~/services/db.server";
import { storage } from "~/services/storage.server";
import { ARTICLE_MESSAGES } from "~/features/articles/messages";
import { cleanupGalleryDrafts } from "~/features/galleries/cleanup.server";
import {
  KEPT_FIELDS_MAX_BYTES,
  KEPT_FORMS_PER_DEVICE,
  KEPT_FORM_TTL_MS,
  getKeptForm,
  keepForm,
  sweepKeptForms,
} from "~/features/kept-forms/kept-forms.server";
import { keptFormMessage } from "~/features/kept-forms/messages";
import { action as addAction, loader as addLoader } from "~/routes/strefapastora.artykuly.dodaj";
import { action as addUploadAction } from "~/routes/strefapastora.artykuly.dodaj.wyslij";
import { action as signOutAction } from "~/routes/strefapastora.wyloguj";
import { loader as filesLoader } from "~/routes/pliki.$";
import { action as editAction, loader as editLoader } from "~/routes/strefapastora.artykuly.edytuj.$id";
import { insertArticle, insertGallery } from "../fixtures";
import { removeUser } from "~/features/auth/users.server";
import { forgetDevice } from "~/features/auth/devices.server";
import { saveGallery } from "~/features/galleries/save.server";
import { createDraft, getDraft } from "~/features/galleries/drafts.server";
import { action as albumEditAction, loader as albumEditLoader } from "~/routes/strefapastora.galeria.edytuj.$slug";
import { ORIGIN, PASTOR, addPastor, signIn } from "../auth-helpers";
import { request, resetDatabase, settle } from "../helpers";

const OTHER = { email: "inny@example.org", password: "haslo-testowe-456" };

beforeAll(async () => {
  await resetDatabase();
  await addPastor();
  await addPastor(OTHER);
});

beforeEach(async () => {
  const d = await db();
  await d.delete(articles);
  await d.delete(galleries);
  await d.delete(keptForms);
  await fs.rm(path.join(process.env.DATA_DIR!, "uploads"), { recursive: true, force: true });
});

async function csrfOf(cookie: string) {
  const res = await settle(() =>
    addLoader({
      request: request("/strefapastora/artykuly/dodaj", { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    }),
  );
  return ((await res.json()) as { csrf: string }).csrf;
}

async function jpegFile(name: string) {
  const data = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#6699cc" } })
    .jpeg()
    .toBuffer();
  return new File([data], name, { type: "image/jpeg" });
}

function form(fields: Record<string, string | File>) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
}

const post = (url: string, body: FormData, headers: Record<string, string>) =>
  request(url, { method: "POST", body, headers: { Origin: ORIGIN, ...headers } });

/** Signs in, then ends the session as another device's sign-out would: the browser keeps both cookies. */
async function endedSession(who = PASTOR) {
  const cookie = await signIn(who);
  const csrf = await csrfOf(cookie);
  await (await db()).delete(sessions);
  return { cookie, csrf };
}

/** The device token alone, as a browser keeps it after its session is gone. */
const deviceCookieOf = (cookie: string) => cookie.split("; ").find((c) => c.startsWith("device="))!;

/** Signs in again in the same browser (its device token sent along). */
const signInAgain = (cookie: string, who = PASTOR) => signIn(who, { Cookie: deviceCookieOf(cookie) });

/** A remembered device of the account, as a row (for calls below the routes). */
async function aDevice(email = PASTOR.email) {
  const d = await db();
  const [user] = await d.select({ id: users.id }).from(users).where(eq(users.email, email));
  const id = crypto.randomBytes(32).toString("hex");
  const now = new Date();
  await d.insert(devices).values({ id, userId: user.id, createdAt: now, lastUsedAt: now, userAgent: null });
  return id;
}

const keptRows = async () => (await db()).select().from(keptForms).orderBy(keptForms.createdAt);
const keptFiles = async () => (await storage().list("zachowane/")).map((f) => f.key);

describe("a form posted after the session ended", () => {
  it("is kept with its photo for the device's owner and comes back filled in after sign-in; one press saves it", async () => {
    const { cookie, csrf } = await endedSession();
    const photo = await jpegFile("kosciol.jpg");
    const res = await settle(() =>
      addAction({
        request: post(
          "/strefapastora/artykuly/dodaj",
          form({
            csrf,
            image: photo,
            header: "Po wygaśnięciu",
            text: "Treść",
            date: "2025-03-01",
          }),
          { Cookie: cookie },
        ),
        params: {},
        context: {},
      }),
    );
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("Location")!, ORIGIN);
    expect(location.pathname).toBe("/strefapastora/logowanie");
    const back = location.searchParams.get("redirectTo")!;
    const key = new URL(back, ORIGIN).searchParams.get("zachowane")!;
    expect(back).toBe(`/strefapastora/artykuly/dodaj?zachowane=${key}`);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await keptRows();
    expect(row).toMatchObject({ id: key, owner: PASTOR.email, form: "article-add" });
    expect(row.fields).toEqual({ header: "Po wygaśnięciu", text: "Treść", date: "2025-03-01" });
    expect(await keptFiles()).toEqual([row.photoKey]);
    expect(await (await db()).select().from(articles)).toEqual([]);

    // Signed in again in the same browser: the same form, filled in, with the message.
    const again = await signInAgain(cookie);
    const page = await settle(() =>
      addLoader({ request: request(back, { headers: { Cookie: again } }), params: {}, context: {} }),
    );
    const data = (await page.json()) as {
      csrf: string;
      kept: { key: string; photo: boolean; message: string; values: { header: string } };
    };
    expect(data.kept).toMatchObject({
      key,
      photo: true,
      message: keptFormMessage(true),
      values: { header: "Po wygaśnięciu" },
    });

    // Another account never sees it, nor this account on another device.
    expect(await getKeptForm({ id: key, user: OTHER, form: "article-add" })).toBeNull();
    expect(
      await getKeptForm({ id: key, user: { ...PASTOR, deviceId: await aDevice() }, form: "article-add" }),
    ).toBeNull();

    // One press: no photo chosen again, the kept one is used.
    const saved = await settle(() =>
      addAction({
        request: post(
          "/strefapastora/artykuly/dodaj",
          form({
            csrf: data.csrf,
            zachowane: key,
            image: new File([], "", { type: "application/octet-stream" }),
            header: "Po wygaśnięciu",
            text: "Treść",
            date: "2025-03-01",
          }),
          { Cookie: again },
        ),
        params: {},
        context: {},
      }),
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/strefapastora/artykuly");
    const [article] = await (await db()).select().from(articles);
    expect(article).toMatchObject({ header: "Po wygaśnięciu", date: "2025-03-01" });
    expect(article.imageKey).toMatch(/^aktualnosci\//);
    expect(await keptRows()).toEqual([]);
    expect(await keptFiles()).toEqual([]);
  });

  it("is restored only in the browser that posted it: another browser of the account sees nothing and changes nothing", async () => {
    const { cookie, csrf } = await endedSession();
    const res = await settle(() =>
      addAction({
        request: post(
          "/strefapastora/artykuly/dodaj",
          form({ csrf, header: "Z telefonu", text: "Treść", date: "2025-03-01" }),
          { Cookie: cookie },
        ),
        params: {},
        context: {},
      }),
    );
    const back = new URL(res.headers.get("Location")!, ORIGIN).searchParams.get("redirectTo")!;
    const key = new URL(back, ORIGIN).searchParams.get("zachowane")!;

    // Another browser (a device of its own) signs in to the same account and opens the address.
    const elsewhere = await signIn();
    expect(deviceCookieOf(elsewhere)).not.toBe(deviceCookieOf(cookie));
    const page = await settle(() =>
      addLoader({ request: request(back, { headers: { Cookie: elsewhere } }), params: {}, context: {} }),
    );
    const shown = (await page.json()) as { csrf: string; kept: unknown };
    expect(shown.kept).toBeNull();
    // Its save naming the kept form saves what it sent and leaves the kept form alone.
    const photo = await jpegFile("laptop.jpg");
    const saved = await settle(() =>
      addAction({
        request: post(
          "/strefapastora/artykuly/dodaj",
          form({
            csrf: shown.csrf,
            zachowane: key,
            image: photo,
            header: "Z laptopa",
            text: "Inna",
            date: "2025-03-02",
          }),
          { Cookie: elsewhere },
        ),
        params: {},
        context: {},
      }),
    );
    expect(saved.status).toBe(302);
    expect((await (await db()).select().from(articles)).map((r) => r.header)).toEqual(["Z laptopa"]);
    expect(await keptRows()).toHaveLength(1);

    // The browser that posted it gets it back.
    const again = await signInAgain(cookie);
    const mine = await settle(() =>
      addLoader({ request: request(back, { headers: { Cookie: again } }), params: {}, context: {} }),
    );
    expect(((await mine.json()) as { kept: { key: string } | null }).kept).toMatchObject({ key });
  });

  it("keeps the device token through sign-out, so a form of a signed-out browser is still the pastor's", async () => {
    const cookie = await signIn();
    const csrf = await csrfOf(cookie);
    const res = await settle(() =>
      signOutAction({
        request: request("/strefapastora/wyloguj", {
          method: "POST",
          body: new URLSearchParams({ csrf }),
          headers: { Cookie: cookie, Origin: ORIGIN },
        }),
        params: {},
        context: {},
      }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.getSetCookie().some((line) => line.startsWith("device="))).toBe(false);
  });

  it("answers the upload script with the way to sign in and back", async () => {
    const { cookie, csrf } = await endedSession();
    const res = await settle(() =>
      addUploadAction({
        request: post(
          "/strefapastora/artykuly/dodaj/wyslij",
          form({ csrf, header: "Skrypt", text: "T", date: "2025-01-01" }),
          {
            Cookie: cookie,
            Accept: "application/json",
          },
        ),
        params: {},
        context: {},
      }),
    );
    expect(res.status).toBe(200);
    const { redirectTo } = (await res.json()) as { redirectTo: string };
    const [row] = await keptRows();
    expect(redirectTo).toBe(
      `/strefapastora/logowanie?redirectTo=${encodeURIComponent(`/strefapastora/artykuly/dodaj?zachowane=${row.id}`)}`,
    );
  });

  it("keeps nothing without a device token, with a forged one, or from another site", async () => {
    const { cookie, csrf } = await endedSession();
    const body = () => form({ csrf, header: "X", text: "Y", date: "2025-01-01" });
    const noDevice = cookie.replace(/(^|; )device=[^;]*/, "");
    const forged = cookie.replace(/device=[^;]*/, "device=eyJlbWFpbCI6InBhc3RvckBleGFtcGxlLm9yZyJ9.zly-podpis");
    for (const [headers, why] of [
      [{ Cookie: noDevice }, "no device token"],
      [{ Cookie: forged }, "forged"],
      [{ Cookie: cookie, Origin: "https://obcy.example" }, "another site"],
    ] as const) {
      const res = await settle(() =>
        addAction({ request: post("/strefapastora/artykuly/dodaj", body(), headers), params: {}, context: {} }),
      );
      expect(res.status, why).toBe(302);
      expect(res.headers.get("Location"), why).toBe("/");
    }
    expect(await keptRows()).toEqual([]);
    expect(await keptFiles()).toEqual([]);
  });

  it("keeps nothing for the token of a removed account", async () => {
    const { cookie, csrf } = await endedSession(OTHER);
    expect(await removeUser({ email: OTHER.email })).toBe(true);
    const res = await settle(() =>
      addAction({
        request: post("/strefapastora/artykuly/dodaj", form({ csrf, header: "X", text: "Y", date: "2025-01-01" }), {
          Cookie: cookie,
        }),
        params: {},
        context: {},
      }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect(await keptRows()).toEqual([]);
  });

  it("keeps nothing from a forgotten device, and forgetting it takes its kept forms along", async () => {
    const { cookie, csrf } = await endedSession();
    const keep = () =>
      settle(() =>
        addAction({
          request: post("/strefapastora/artykuly/dodaj", form({ csrf, header: "X", text: "Y", date: "2025-01-01" }), {
            Cookie: cookie,
          }),
          params: {},
          context: {},
        }),
      );
    expect((await keep()).status).toBe(302);
    const [row] = await keptRows();
    const [user] = await (await db()).select({ id: users.id }).from(users).where(eq(users.email, PASTOR.email));
    expect(await forgetDevice(user.id, row.deviceId)).toBe(true);
    expect(await keptRows()).toEqual([]);

    const res = await keep();
    expect(res.headers.get("Location")).toBe("/");
    expect(await keptRows()).toEqual([]);
  });

  it("refuses with 413 when the fields together pass 1 MB, though each is under it, keeping nothing", async () => {
    const { cookie, csrf } = await endedSession();
    const part = "a".repeat(300 * 1024);
    const res = await settle(() =>
      addAction({
        request: post(
          "/strefapastora/artykuly/dodaj",
          form({ csrf, header: part, text: part, lead: part, extra: part, date: "2025-01-01" }),
          { Cookie: cookie },
        ),
        params: {},
        context: {},
      }),
    );
    expect(res.status).toBe(413);
    expect(await res.text()).toBe("Formularz jest zbyt duży.");
    expect(await keptRows()).toEqual([]);

    // Url-encoded, one field over the cap.
    const encoded = await settle(() =>
      addAction({
        request: request("/strefapastora/artykuly/dodaj", {
          method: "POST",
          body: new URLSearchParams({ csrf, header: "a".repeat(KEPT_FIELDS_MAX_BYTES + 1) }),
          headers: { Origin: ORIGIN, Cookie: cookie },
        }),
        params: {},
        context: {},
      }),
    );
    expect(encoded.status).toBe(413);
    expect(await keptRows()).toEqual([]);

    // Just under the cap together, it is kept.
    const under = "a".repeat(200 * 1024);
    const kept = await settle(() =>
      addAction({
        request: post(
          "/strefapastora/artykuly/dodaj",
          form({ csrf, header: under, text: under, lead: under, extra: under, date: "2025-01-01" }),
          { Cookie: cookie },
        ),
        params: {},
        context: {},
      }),
    );
    expect(kept.status).toBe(302);
    expect(await keptRows()).toHaveLength(1);
  });

  it("keeps a file only if an upload would take it as a photo, and /pliki never serves a kept one", async () => {
    const { cookie, csrf } = await endedSession();
    const fake = new File(["<html><script>alert(1)</script></html>"], "kosciol.jpg", { type: "image/jpeg" });
    const res = await settle(() =>
      addAction({
        request: post(
          "/strefapastora/artykuly/dodaj",
          form({ csrf, image: fake, header: "Tekst zostaje", text: "Treść", date: "2025-01-01" }),
          { Cookie: cookie },
        ),
        params: {},
        context: {},
      }),
    );
    expect(res.status).toBe(302);
    const [row] = await keptRows();
    expect(row).toMatchObject({ photoKey: null, fields: { header: "Tekst zostaje", text: "Treść" } });
    expect(await keptFiles()).toEqual([]);

    // A genuine photo is kept, but only for the server.
    const photo = await jpegFile("a.jpg");
    const kept = await settle(() =>
      addAction({
        request: post(
          "/strefapastora/artykuly/dodaj",
          form({ csrf, image: photo, header: "Z", text: "T", date: "2025-01-01" }),
          { Cookie: cookie },
        ),
        params: {},
        context: {},
      }),
    );
    expect(kept.status).toBe(302);
    const [key] = await keptFiles();
    expect(key).toMatch(/^zachowane\//);
    const served = await settle(() =>
      filesLoader({ request: request(`/pliki/${key}`), params: { "*": key }, context: {} }),
    );
    expect(served.status).toBe(404);
  });

  it("keeps a few per device, dropping the oldest with its photo", async () => {
    const deviceId = await aDevice();
    const tmp = path.join(process.env.DATA_DIR!, "kept-test.jpg");
    await fs.writeFile(tmp, new Uint8Array(await (await jpegFile("a.jpg")).arrayBuffer()));
    const ids: string[] = [];
    for (let n = 0; n <= KEPT_FORMS_PER_DEVICE; n++) {
      ids.push(
        await keepForm({
          owner: PASTOR.email,
          deviceId,
          form: "article-add",
          path: "/strefapastora/artykuly/dodaj",
          fields: { header: `nr ${n}` },
          photo: { file: tmp, name: "a.jpg", size: 10 },
        }),
      );
      // Distinct creation times, so "oldest" is well defined.
      const t = Date.now();
      while (Date.now() === t) await new Promise((r) => setImmediate(r));
    }
    const rows = await keptRows();
    expect(rows).toHaveLength(KEPT_FORMS_PER_DEVICE);
    expect(rows.map((r) => r.id)).not.toContain(ids[0]);
    expect((await keptFiles()).sort()).toEqual(rows.map((r) => r.photoKey).sort());
  });

  it("expires after a day with its photo; the orphan sweep leaves a kept photo alone", async () => {
    const tmp = path.join(process.env.DATA_DIR!, "kept-test.jpg");
    await fs.writeFile(tmp, new Uint8Array(await (await jpegFile("a.jpg")).arrayBuffer()));
    const deviceId = await aDevice();
    const id = await keepForm({
      owner: PASTOR.email,
      deviceId,
      form: "article-add",
      path: "/strefapastora/artykuly/dodaj",
      fields: {},
      photo: { file: tmp, name: "a.jpg", size: 10 },
    });
    // Any file older than the orphan age that no image row names is swept: not a kept one.
    await cleanupGalleryDrafts({ orphanMinAgeMs: -1000 });
    expect(await keptFiles()).toHaveLength(1);
    expect(await getKeptForm({ id, user: { ...PASTOR, deviceId }, form: "article-add" })).not.toBeNull();

    const later = new Date(Date.now() + KEPT_FORM_TTL_MS + 1000);
    expect(await sweepKeptForms({ now: later })).toEqual({ forms: 1, files: 1 });
    expect(await keptRows()).toEqual([]);
    expect(await keptFiles()).toEqual([]);
  });
});

describe("a save over a newer version", () => {
  async function openEdit(cookie: string, id: string) {
    const res = await settle(() =>
      editLoader({
        request: request(`/strefapastora/artykuly/edytuj/${id}`, { headers: { Cookie: cookie } }),
        params: { id },
        context: {},
      }),
    );
    return (await res.json()) as { csrf: string; article: { version: number; imageKey: string | null } };
  }

  const save = (cookie: string, id: string, fields: Record<string, string>) =>
    settle(() =>
      editAction({
        request: post(`/strefapastora/artykuly/edytuj/${id}`, form(fields), { Cookie: cookie }),
        params: { id },
        context: {},
      }),
    );

  it("is refused with what differs, nothing written; the fresh version saves and counts up", async () => {
    const cookie = await signIn();
    await insertArticle({ id: "1700000000000", header: "Początek", text: "Stara treść", date: "2025-01-01" });
    const a = await openEdit(cookie, "1700000000000");
    const b = await openEdit(cookie, "1700000000000");
    expect(a.article.version).toBe(1);
    const fields = (page: typeof a, header: string, text: string) => ({
      csrf: page.csrf,
      version: String(page.article.version),
      baseImage: page.article.imageKey ?? "",
      header,
      text,
      date: "",
    });

    expect((await save(cookie, "1700000000000", fields(a, "Wersja A", "Treść A"))).status).toBe(302);
    const refused = await save(cookie, "1700000000000", fields(b, "Wersja B", "Stara treść"));
    expect(refused.status).toBe(409);
    const reply = (await refused.json()) as {
      error: string;
      values: { header: string };
      conflict: { version: number; changed: string[]; current: { header: string; text: string } };
    };
    expect(reply.error).toBe(ARTICLE_MESSAGES.conflict);
    expect(reply.values.header).toBe("Wersja B");
    expect(reply.conflict).toMatchObject({
      version: 2,
      changed: ["header", "text"],
      current: { header: "Wersja A", text: "Treść A" },
    });
    const [stored] = await (await db()).select().from(articles).where(eq(articles.id, "1700000000000"));
    expect(stored).toMatchObject({ header: "Wersja A", text: "Treść A", version: 2 });

    // Saved on purpose over the version now shown.
    const mine = await save(cookie, "1700000000000", { ...fields(b, "Wersja B", "Stara treść"), version: "2" });
    expect(mine.status).toBe(302);
    const [after] = await (await db()).select().from(articles).where(eq(articles.id, "1700000000000"));
    expect(after).toMatchObject({ header: "Wersja B", text: "Stara treść", version: 3 });
  });
});

describe("albums", () => {
  const values = (title: string) => ({ title, description: "Opis", date: "2025-01-01" });
  const pastorId = async () => (await (await db()).select({ id: users.id }).from(users).limit(1))[0].id;

  it("refuses a save over a newer version with what differs, writing nothing; the fresh version saves and counts up", async () => {
    const userId = await pastorId();
    const id = await insertGallery({ title: "Album", description: "Opis" }, [
      { name: "a.jpg", key: "galeria/x/a.jpg" },
      { name: "b.jpg", key: "galeria/x/b.jpg" },
    ]);
    // B begins an edit: a draft of version 1.
    const draftId = (await createDraft({ userId, galleryId: id, values: values("Album") }))!;
    expect((await getDraft({ id: draftId, userId }))!.baseVersion).toBe(1);
    // A renames it meanwhile.
    expect(
      await saveGallery({ userId, draftId: null, galleryId: id, values: values("Album A"), baseVersion: 1 }),
    ).toMatchObject({
      ok: true,
      title: "Album A",
    });
    const refused = await saveGallery({ userId, draftId, galleryId: id, values: values("Album B"), baseVersion: 1 });
    expect(refused).toMatchObject({
      ok: false,
      conflict: { version: 2, changed: ["tytuł"], current: { title: "Album A" } },
    });
    const [stored] = await (await db()).select().from(galleries).where(eq(galleries.id, id));
    expect(stored).toMatchObject({ title: "Album A", version: 2 });
    expect(await getDraft({ id: draftId, userId })).not.toBeNull();

    expect(
      await saveGallery({ userId, draftId, galleryId: id, values: values("Album B"), baseVersion: 2 }),
    ).toMatchObject({
      ok: true,
      title: "Album B",
    });
    const [after] = await (await db()).select().from(galleries).where(eq(galleries.id, id));
    expect(after).toMatchObject({ title: "Album B", version: 3 });
  });

  it("keeps details posted after the session ended; after sign-in the editor shows them, writing nothing, and the save uses them", async () => {
    await insertGallery({ title: "Wakacje" });
    const { cookie, csrf } = await endedSession();
    const res = await settle(() =>
      albumEditAction({
        request: post(
          "/strefapastora/galeria/edytuj/Wakacje",
          form({
            csrf,
            title: "Wakacje 2025",
            description: "Nowy opis",
            date: "2025-07-01",
            version: "1",
            intent: "save",
          }),
          { Cookie: cookie },
        ),
        params: {},
        context: {},
      }),
    );
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("Location")!, ORIGIN).searchParams.get("redirectTo")!;
    expect(back).toMatch(/^\/strefapastora\/galeria\/edytuj\/Wakacje\?zachowane=[A-Za-z0-9_-]{43}$/);
    const [row] = await keptRows();
    expect(row).toMatchObject({ form: "album-details", photoKey: null });

    // A GET (twice, as a prefetch might) shows the kept details and writes nothing.
    const again = await signInAgain(cookie);
    for (let n = 0; n < 2; n++) {
      const opened = await settle(() =>
        albumEditLoader({ request: request(back, { headers: { Cookie: again } }), params: {}, context: {} }),
      );
      expect(opened.status).toBe(200);
      const shown = (await opened.json()) as {
        csrf: string;
        keptKey: string | null;
        flash: string | null;
        values: { title: string; description: string; date: string };
        version: number;
      };
      expect(shown).toMatchObject({
        keptKey: row.id,
        flash: keptFormMessage(false),
        values: { title: "Wakacje 2025", description: "Nowy opis", date: "2025-07-01" },
        version: 1,
      });
    }
    expect(await (await db()).select().from(galleryDrafts)).toEqual([]);
    expect(await keptRows()).toHaveLength(1);
    const [album] = await (await db()).select().from(galleries);
    expect(album.title).toBe("Wakacje");

    // Another browser of the account sees the album as it is.
    const elsewhere = await signIn();
    const plain = await settle(() =>
      albumEditLoader({ request: request(back, { headers: { Cookie: elsewhere } }), params: {}, context: {} }),
    );
    expect(await plain.json()).toMatchObject({ keptKey: null, values: { title: "Wakacje" } });

    // The form's own save, carrying the key, saves them and drops the kept form.
    const csrfAgain = await csrfOf(again);
    const saved = await settle(() =>
      albumEditAction({
        request: post(
          back,
          form({
            csrf: csrfAgain,
            zachowane: row.id,
            title: "Wakacje 2025",
            description: "Nowy opis",
            date: "2025-07-01",
            version: "1",
            albumId: String(album.id),
            intent: "save",
          }),
          { Cookie: again },
        ),
        params: {},
        context: {},
      }),
    );
    expect(saved.status).toBe(302);
    const [after] = await (await db()).select().from(galleries);
    expect(after.title).toBe("Wakacje 2025");
    expect(await keptRows()).toEqual([]);
  });
});
