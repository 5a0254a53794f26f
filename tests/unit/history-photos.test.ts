// 'Zdjęcia z historii zboru' on the real database and disk storage: photos
// uploaded through the pastor's page go through the albums' pipeline (WebP
// and AVIF variants, no EXIF or GPS left), show on /onas at once in the
// pastor's order, and a removed one takes its files with it.
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { listActivity } from "~/features/activity/activity.server";
import {
  describeHistoryPhoto,
  listHistoryPhotosForPastor,
  moveHistoryPhoto,
  removeHistoryPhoto,
} from "~/features/about-photos/about-photos.server";
import { allKeys } from "~/lib/image-variants";
import { currentContentVersion } from "~/services/content-version.server";
import { db } from "~/services/db.server";
import { historyPhotos } from "~/services/schema";
import { storage } from "~/services/storage.server";
import { loader as aboutLoader } from "~/routes/onas._index";
import { action, loader } from "~/routes/strefapastora.zdjecia-historii";
import { ORIGIN, PASTOR, addPastor, signIn } from "../auth-helpers";
import { request, resetDatabase, settle } from "../helpers";

const actor = { email: PASTOR.email };
let session: string;
let csrf: string;
const args = (req: Request) => ({ request: req, params: {}, context: {} });

/** A phone-like JPEG with a camera make and a GPS position in its EXIF. */
function photoWithGps(color: string, width = 1600, height = 1200) {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg()
    .withExif({
      IFD0: { Make: "TestCam" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "49/1 59/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "20/1 3/1 0/1" },
    })
    .toBuffer();
}

async function bytesOf(key: string) {
  const object = await storage().get(key);
  if (!object) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

function upload(files: { name: string; bytes: Buffer }[], cookie = session) {
  const form = new FormData();
  form.append("csrf", csrf);
  for (const f of files) form.append("photos", new File([new Uint8Array(f.bytes)], f.name, { type: "image/jpeg" }));
  return settle(() =>
    action(
      args(
        request("/strefapastora/zdjecia-historii", {
          method: "POST",
          body: form,
          headers: { Cookie: cookie, Origin: ORIGIN },
        }),
      ),
    ),
  );
}

function post(fields: Record<string, string>) {
  return settle(() =>
    action(
      args(
        request("/strefapastora/zdjecia-historii", {
          method: "POST",
          body: new URLSearchParams({ csrf, ...fields }),
          headers: { Cookie: session, Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
        }),
      ),
    ),
  );
}

const onAbout = async () =>
  ((await (await settle(() => aboutLoader())).json()) as { photos: { name: string; full: string }[] }).photos;

beforeAll(async () => {
  await resetDatabase();
  await addPastor();
  session = await signIn(PASTOR);
  csrf = (await (await settle(() => loader(args(request("/x", { headers: { Cookie: session } }))))).json()).csrf;
});

describe("history photos", () => {
  it("sends a stranger away and stores nothing", async () => {
    const res = await upload([{ name: "a.jpg", bytes: await photoWithGps("#800") }], "");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).not.toContain("zdjecia-historii");
    expect(await listHistoryPhotosForPastor()).toEqual([]);
  });

  it("stores uploads through the photo pipeline: variants in WebP and AVIF, no EXIF or GPS; /onas shows them at once", async () => {
    const before = await currentContentVersion();
    const res = await upload([
      { name: "kosciol-2012.jpg", bytes: await photoWithGps("#a33") },
      { name: "notatki.jpg", bytes: Buffer.from("to nie jest zdjęcie") },
      { name: "chrzest.jpg", bytes: await photoWithGps("#33a", 800, 600) },
    ]);
    expect(res.status).toBe(302);
    expect(await currentContentVersion()).toBeGreaterThan(before);
    expect((await onAbout()).map((p) => p.name)).toEqual(["kosciol-2012.jpg", "chrzest.jpg"]);

    const rows = await (await db()).select().from(historyPhotos);
    const first = rows.find((r) => r.name === "kosciol-2012.jpg")!;
    expect(first.imageKey).toMatch(/^historia\/.+\.jpg$/);
    const keys = allKeys(first.imageKey, first.width);
    expect(keys.some((k) => k.endsWith(".avif"))).toBe(true);
    expect(keys.some((k) => k.endsWith(".webp"))).toBe(true);
    for (const key of keys) {
      const bytes = await bytesOf(key);
      expect(bytes, key).not.toBeNull();
      const meta = await sharp(bytes!).metadata();
      expect(meta.exif, key).toBeUndefined();
      expect(bytes!.toString("latin1"), key).not.toContain("TestCam");
    }
  });

  it("refuses a batch of nothing but bad files, naming each, and stores nothing", async () => {
    const count = (await listHistoryPhotosForPastor()).length;
    const res = await upload([{ name: "zepsute.jpg", bytes: Buffer.from("xx") }]);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/^0 z 1 zdjęcia dodano; zepsute\.jpg: /);
    expect((await listHistoryPhotosForPastor()).length).toBe(count);
  });

  it("moves a photo with ↑ and ↓, and gives it a description that /onas uses as its alt text", async () => {
    const [a, b] = await listHistoryPhotosForPastor();
    expect((await post({ intent: "up", id: String(b.id) })).status).toBe(302);
    expect((await onAbout()).map((p) => p.name)).toEqual([b.name, a.name]);
    expect(await moveHistoryPhoto(b.id, "down", { actor })).toBe(b.name);
    expect((await onAbout()).map((p) => p.name)).toEqual([a.name, b.name]);

    const described = await post({
      intent: "describe",
      id: String(a.id),
      version: String(a.version),
      name: "  Pierwsze   nabożeństwo ",
    });
    expect(described.status).toBe(302);
    expect((await onAbout())[0].name).toBe("Pierwsze nabożeństwo");
    const refused = await post({ intent: "describe", id: String(a.id), version: String(a.version + 1), name: " " });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "Opis zdjęcia nie może być pusty." });
    expect(await describeHistoryPhoto(999999, "x", { baseVersion: 1, actor })).toEqual({
      ok: false,
      error: "Tego zdjęcia już nie ma.",
    });
  });

  it("refuses a description from a second tab over a newer one, keeping what was typed, and saves it once seen", async () => {
    const [a] = await listHistoryPhotosForPastor();
    const describe = (name: string, version: number) =>
      post({ intent: "describe", id: String(a.id), version: String(version), name });
    // Two tabs opened at the same version; the first saves.
    expect((await describe("Budowa kaplicy, 1992", a.version)).status).toBe(302);
    const second = await describe("Poświęcenie kaplicy", a.version);
    expect(second.status).toBe(409);
    expect(await second.json()).toEqual({
      error:
        "Ktoś zapisał opis tego zdjęcia w innej karcie lub na innym urządzeniu, zanim zapisano Twoje zmiany. Nic nie zostało nadpisane.",
      id: a.id,
      name: "Poświęcenie kaplicy",
      version: a.version + 1,
      current: "Budowa kaplicy, 1992",
    });
    expect((await onAbout())[0].name).toBe("Budowa kaplicy, 1992");
    // Saved again with the version the refusal gave the form: the pastor's text over the other.
    expect((await describe("Poświęcenie kaplicy", a.version + 1)).status).toBe(302);
    expect((await onAbout())[0].name).toBe("Poświęcenie kaplicy");
    // A move changes no text: it leaves the version as it is.
    const [, b] = await listHistoryPhotosForPastor();
    expect((await post({ intent: "up", id: String(b.id) })).status).toBe(302);
    expect((await listHistoryPhotosForPastor()).find((p) => p.id === a.id)!.version).toBe(a.version + 2);
    await moveHistoryPhoto(b.id, "down", { actor });
  });

  it("takes a dragged order naming every photo once, and refuses a stale one", async () => {
    const [a, b] = await listHistoryPhotosForPastor();
    const res = await post({ intent: "reorder", id: String(b.id), order: `${b.id},${a.id}` });
    expect(res.status).toBe(302);
    expect((await listHistoryPhotosForPastor()).map((p) => p.id)).toEqual([b.id, a.id]);
    // Missing one (added or removed in another tab meanwhile): nothing moves.
    expect((await post({ intent: "reorder", id: String(a.id), order: `${a.id}` })).status).toBe(302);
    expect((await listHistoryPhotosForPastor()).map((p) => p.id)).toEqual([b.id, a.id]);
    await post({ intent: "reorder", id: String(a.id), order: `${a.id},${b.id}` });
    expect((await listHistoryPhotosForPastor()).map((p) => p.id)).toEqual([a.id, b.id]);
  });

  it("removes a photo only once confirmed, with every file of it", async () => {
    const rows = await (await db()).select().from(historyPhotos);
    const photo = rows.find((r) => r.name === "chrzest.jpg")!;
    const asked = await post({ intent: "delete", id: String(photo.id) });
    expect(asked.status).toBe(200);
    expect((await asked.json()).confirm.question).toBe("Usunąć zdjęcie „chrzest.jpg”? Tego nie można cofnąć.");
    expect((await onAbout()).map((p) => p.name)).toContain("chrzest.jpg");

    expect((await post({ intent: "delete", id: String(photo.id), confirmed: "1" })).status).toBe(302);
    expect((await onAbout()).map((p) => p.name)).not.toContain("chrzest.jpg");
    for (const key of allKeys(photo.imageKey, photo.width)) expect(await storage().exists(key), key).toBe(false);
    expect(await removeHistoryPhoto(photo.id, { actor })).toBeNull();
  });

  it("writes each change in the history of changes", async () => {
    const words = (await listActivity()).filter((e) => e.subjectKind === "history_photo").map((e) => e.action);
    expect(words).toEqual(expect.arrayContaining(["created", "edited", "purged"]));
  });
});
