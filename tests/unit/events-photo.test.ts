// An event's optional photo on the real database and real disk storage:
// stored through the article pipeline (variants, no EXIF/GPS), refused in
// Polish beside its input with nothing left behind, replaced or removed on
// an edit (the old files go once nothing names them), shown on the
// occurrence's page and in its schema.org Event, and never taken by the
// sweep of files nothing names, binned or not.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { binEvent, addEvent, getPastorEvent, updateEvent } from "~/features/events/events-admin.server";
import { EVENT_UPLOAD_LIMITS, submitEventUpload } from "~/features/events/event-form.server";
import { withUpload } from "~/http/upload-request.server";
import { EMPTY_EVENT_FORM, type EventFormValues } from "~/features/events/event-fields";
import { eventPage } from "~/features/events/event-page.server";
import { eventJsonLd } from "~/features/events/event-json-ld";
import { EVENT_IMAGE_FOLDER, storedPhotoOf } from "~/features/events/event-photo.server";
import { cleanupGalleryDrafts } from "~/features/galleries/cleanup.server";
import { purgeItem } from "~/features/bin/bin.server";
import { createUser } from "~/features/auth/users.server";
import { IMAGE_MESSAGES, type StoredImage } from "~/services/images.server";
import { allKeys } from "~/lib/image-variants";
import { storage } from "~/services/storage.server";
import { resetDatabase } from "../helpers";

const ORIGIN = "https://zbor.example.org";
let tmp: string;
let pastor: { id: number; email: string };

const form = (v: Partial<EventFormValues>): EventFormValues => ({
  ...EMPTY_EVENT_FORM,
  title: "Piknik zborowy",
  startDate: "2030-06-15",
  startTime: "14:00",
  ...v,
});

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-event-photo-"));
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});
beforeEach(async () => {
  await resetDatabase();
  await fs.rm(path.join(process.env.DATA_DIR!, "uploads"), { recursive: true, force: true });
  pastor = await createUser({ email: "pastor@example.org", password: "haslo-testowe-123" });
});

let n = 0;
/** A JPEG as a phone makes it: with EXIF, GPS position included. */
async function photo(name = "IMG_0042.jpg") {
  const file = path.join(tmp, `upload-${++n}`);
  await sharp({ create: { width: 800, height: 600, channels: 3, background: `hsl(${n * 40},60%,50%)` } })
    .withExif({ IFD0: { Make: "Telefon" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "52/1 13/1 0/1" } })
    .jpeg()
    .toFile(file);
  return { input: file, name };
}

async function filesExist(image: StoredImage) {
  return Promise.all(allKeys(image.key, image.width).map((k) => storage().exists(k)));
}

const eventFiles = async () => (await storage().list(`${EVENT_IMAGE_FOLDER}/`)).map((f) => f.key);

async function addWithPhoto(v: Partial<EventFormValues> = {}) {
  const added = await addEvent(form(v), { intent: "publish", actor: pastor, photo: await photo() });
  if (!added.ok) throw new Error(JSON.stringify(added));
  const stored = await getPastorEvent(added.id);
  return { id: added.id, image: storedPhotoOf(stored!)! };
}

describe("adding an event with a photo", () => {
  it("stores its variants without EXIF or GPS, shows it on the occurrence's page and in its schema.org Event", async () => {
    const { id, image } = await addWithPhoto();
    expect(image.key.startsWith(`${EVENT_IMAGE_FOLDER}/`)).toBe(true);
    expect(image).toMatchObject({ width: 800, height: 600 });
    expect(await filesExist(image)).not.toContain(false);
    const large = await storage().get(image.key);
    const chunks: Buffer[] = [];
    for await (const chunk of large!.body) chunks.push(chunk as Buffer);
    const meta = await sharp(Buffer.concat(chunks)).metadata();
    expect(meta.exif).toBeUndefined();

    const { e, path: pagePath, address } = (await eventPage(String(id), null)).page;
    expect(e?.image?.srcSet).toMatch(/\.webp 480w/);
    const ld = eventJsonLd(ORIGIN, pagePath!, e!, address);
    expect(ld.image).toEqual([expect.stringMatching(/^https:\/\/zbor\.example\.org\/.+\.jpe?g$/)]);
  });

  it("refuses a file that is not a photo beside its input, keeping nothing", async () => {
    const bad = path.join(tmp, "not-a-photo");
    await fs.writeFile(bad, "to nie jest zdjęcie\n".repeat(100));
    const r = await addEvent(form({}), { intent: "publish", actor: pastor, photo: { input: bad, name: "a.jpg" } });
    expect(r).toEqual({ ok: false, status: 400, errors: { image: IMAGE_MESSAGES.notImage } });
    expect(await eventFiles()).toEqual([]);
  });

  it("stores no photo while the fields are refused", async () => {
    const r = await addEvent(form({ startDate: "2030-02-30" }), {
      intent: "publish",
      actor: pastor,
      photo: await photo(),
    });
    expect(r).toMatchObject({ ok: false, status: 400, errors: { startDate: expect.any(String) } });
    expect(await eventFiles()).toEqual([]);
  });

  it("reads the multipart form the page posts, and says the photo must be chosen again after a refusal", async () => {
    const body = new FormData();
    for (const [k, v] of Object.entries({ title: "Chrzest", startDate: "2030-07-01", startTime: "" })) body.set(k, v);
    body.set("image", new Blob([await fs.readFile((await photo()).input)], { type: "image/jpeg" }), "chrzest.jpg");
    // Read as the page's action reads it.
    const post = () =>
      withUpload(
        new Request("http://localhost/strefapastora/wydarzenia/dodaj", { method: "POST", body }),
        EVENT_UPLOAD_LIMITS,
        (upload) => submitEventUpload(upload, { kind: "add" }, pastor),
      );
    const refused = await post();
    expect(refused).toMatchObject({ ok: false, status: 400, refused: { photoLost: true } });
    expect(await eventFiles()).toEqual([]);

    body.set("startTime", "10:00");
    const saved = await post();
    if (!saved.ok) throw new Error(JSON.stringify(saved));
    const stored = await getPastorEvent(saved.id);
    expect(await filesExist(storedPhotoOf(stored!)!)).not.toContain(false);
  });
});

describe("editing an event's photo", () => {
  it("replaces it (the old files go) and removes it on 'usuń zdjęcie'; both at once is refused", async () => {
    const { id, image: first } = await addWithPhoto();
    const base = { intent: "publish", actor: pastor };

    const both = await updateEvent(id, form({}), {
      ...base,
      baseVersion: 1,
      photo: { upload: await photo(), remove: true },
    });
    expect(both).toMatchObject({ ok: false, status: 400, errors: { image: expect.stringContaining("nie oba") } });

    const replaced = await updateEvent(id, form({}), {
      ...base,
      baseVersion: 1,
      photo: { upload: await photo(), remove: false },
    });
    expect(replaced.ok).toBe(true);
    const second = storedPhotoOf((await getPastorEvent(id))!)!;
    expect(second.key).not.toBe(first.key);
    expect(await filesExist(first)).not.toContain(true);
    expect(await filesExist(second)).not.toContain(false);

    // An edit of the text alone keeps the photo.
    expect((await updateEvent(id, form({ place: "Park" }), { ...base, baseVersion: 2 })).ok).toBe(true);
    expect(storedPhotoOf((await getPastorEvent(id))!)).toEqual(second);

    const removed = await updateEvent(id, form({ place: "Park" }), {
      ...base,
      baseVersion: 3,
      photo: { upload: null, remove: true },
    });
    expect(removed.ok).toBe(true);
    expect(storedPhotoOf((await getPastorEvent(id))!)).toBeNull();
    expect(await filesExist(second)).not.toContain(true);
    expect(await eventFiles()).toEqual([]);
  });

  it("refuses a new photo over a newer version, keeping no file of it", async () => {
    const { id, image } = await addWithPhoto();
    const r = await updateEvent(id, form({}), {
      intent: "publish",
      actor: pastor,
      baseVersion: 0,
      photo: { upload: await photo(), remove: false },
    });
    expect(r).toMatchObject({ ok: false, status: 409, changed: ["zdjęcie"] });
    const left = await eventFiles();
    expect(left.length).toBe(allKeys(image.key, image.width).length);
    expect(left.every((k) => k.startsWith(image.key.replace(/\.jpg$/, "")))).toBe(true);
  });
});

describe("the sweep of files nothing names", () => {
  it("leaves an event's photo, binned or not; purging the binned event removes its files", async () => {
    const live = await addWithPhoto({ title: "Zostaje" });
    const binned = await addWithPhoto({ title: "W koszu" });
    expect((await binEvent(binned.id, { actor: pastor })).ok).toBe(true);

    const swept = await cleanupGalleryDrafts({ orphanMinAgeMs: 0, now: new Date(Date.now() + 60_000) });
    expect(swept.orphans).toEqual([]);
    expect(await filesExist(live.image)).not.toContain(false);
    expect(await filesExist(binned.image)).not.toContain(false);

    expect(await purgeItem({ kind: "event", id: String(binned.id) })).toBe(true);
    expect(await filesExist(binned.image)).not.toContain(true);
    expect(await filesExist(live.image)).not.toContain(false);
  });
});
