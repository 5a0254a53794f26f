// Forms posted after their session ended are kept, so that signing in again
// loses nothing. Only a remembered device of an existing account (its token
// set at sign-in, kept after sign-out and expiry) may leave one, and only
// from our own pages; at most 1 MB of fields, a few per device, for a day.
// After sign-in in that same browser the form's page shows the kept text
// (?zachowane=key), and one press saves it; any other browser, even the same
// account's, is shown nothing.
import crypto from "node:crypto";
import { redirect } from "@remix-run/node";
import { and, asc, eq, lt, sql } from "drizzle-orm";
import { requireReadUser, type SessionUser } from "~/features/auth/auth.server";
import { isSameOrigin } from "~/features/auth/csrf.server";
import { deviceOwner, touchDevice } from "~/features/auth/device-token.server";
import { clearSessionCookie, readSession } from "~/features/auth/session.server";
import { throttleEmail } from "~/features/auth/sign-in-limits.server";
import { KEPT_PARAM, type KeptFormKind, type KeptFormView, keptFormMessage } from "~/features/kept-forms/messages";
import { clock } from "~/services/clock.server";
import { withDb } from "~/services/db.server";
import { logger } from "~/services/logger.server";
import { keptForms } from "~/services/schema";
import { checkImage } from "~/services/images.server";
import { type Storage, storage } from "~/services/storage.server";
import { readBodyCapped } from "~/services/streams.server";
import { parseUpload } from "~/services/upload.server";
import { CSRF_FIELD } from "~/lib/csrf";
import { formTooLarge } from "~/http/small-form.server";
import { LOGIN_PATH } from "~/lib/paths";

export const KEPT_FORM_TTL_MS = 24 * 60 * 60 * 1000;
/** Kept forms per device; a further one drops the oldest. */
export const KEPT_FORMS_PER_DEVICE = 5;
/** Storage folder of kept photos; their names are not images' (`.upload`), so the orphan sweep leaves them alone. */
export const KEPT_FOLDER = "zachowane";
// /pliki never serves this folder (services/storage PRIVATE_FOLDERS).
// A stray file of a keep that failed midway is removed once this old.
const STRAY_MIN_AGE_MS = 60 * 60 * 1000;
/** The fields of a kept form together; more is refused (413) rather than kept. */
export const KEPT_FIELDS_MAX_BYTES = 1024 * 1024;
const FORM_BYTES = KEPT_FIELDS_MAX_BYTES;

const isKeyLike = (v: string | null | undefined): v is string => typeof v === "string" && /^[A-Za-z0-9_-]{43}$/.test(v);
const photoKeyFor = (id: string) => `${KEPT_FOLDER}/${id}.upload`;

export interface KeptForm {
  id: string;
  form: KeptFormKind;
  path: string;
  fields: Record<string, string>;
  photo: { key: string; name: string; size: number } | null;
}

/** The answer that sends the browser to sign in and back to the kept form. */
export function signInAndBack(path: string, id: string): string {
  const url = new URL(path, "http://same-site.invalid");
  // A form restored from a kept one and kept again names only the new key.
  url.searchParams.delete(KEPT_PARAM);
  url.searchParams.set(KEPT_PARAM, id);
  const back = `${url.pathname}${url.search}`;
  return `${LOGIN_PATH}?redirectTo=${encodeURIComponent(back)}`;
}

async function removeFile(key: string | null, store: Storage) {
  if (!key) return;
  try {
    await store.delete(key);
  } catch (error) {
    logger.error({ err: error, key }, "removing a kept photo failed");
  }
}

/**
 * Keeps one form for the device and its owner. A form restored from a kept
 * one (its `zachowane` field) replaces it and keeps its photo unless a new
 * one came. Beyond the device's quota the oldest go, with their photos.
 */
export async function keepForm(
  {
    owner,
    deviceId,
    form,
    path,
    fields,
    photo,
  }: {
    owner: string;
    /** The devices row of the browser that posted it. */
    deviceId: string;
    form: KeptFormKind;
    path: string;
    fields: Record<string, string>;
    photo?: { file: string; name: string; size: number } | null;
  },
  store: Storage = storage(),
): Promise<string> {
  const id = crypto.randomBytes(32).toString("base64url");
  const now = clock.now();
  let photoRef: KeptForm["photo"] = null;
  if (photo) {
    photoRef = { key: photoKeyFor(id), name: photo.name.slice(0, 255), size: photo.size };
    await store.putFile(photoRef.key, photo.file, "application/octet-stream");
  }
  const replaced = fields[KEPT_PARAM];
  const removed = await withDb((db) =>
    db.transaction(async (tx) => {
      const gone: (string | null)[] = [];
      if (isKeyLike(replaced)) {
        const [old] = await tx
          .delete(keptForms)
          .where(and(eq(keptForms.id, replaced), eq(keptForms.owner, owner), eq(keptForms.deviceId, deviceId)))
          .returning();
        if (old) {
          // The earlier photo goes on with the new row unless a new one replaces it.
          if (!photoRef && old.photoKey) {
            photoRef = { key: old.photoKey, name: old.photoName ?? "", size: old.photoSize ?? 0 };
          } else gone.push(old.photoKey);
        }
      }
      const { [KEPT_PARAM]: _dropped, ...rest } = fields;
      await tx.insert(keptForms).values({
        id,
        owner,
        deviceId,
        form,
        path,
        fields: rest,
        photoKey: photoRef?.key ?? null,
        photoName: photoRef?.name ?? null,
        photoSize: photoRef?.size ?? null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + KEPT_FORM_TTL_MS),
      });
      const over = await tx
        .select({ id: keptForms.id, photoKey: keptForms.photoKey })
        .from(keptForms)
        .where(eq(keptForms.deviceId, deviceId))
        .orderBy(sql`${keptForms.createdAt} desc`, asc(keptForms.id))
        .offset(KEPT_FORMS_PER_DEVICE);
      for (const row of over) {
        await tx.delete(keptForms).where(eq(keptForms.id, row.id));
        gone.push(row.photoKey);
      }
      return gone;
    }),
  );
  for (const key of removed) await removeFile(key, store);
  return id;
}

/** Whose a kept form is: the signed-in account, in the browser (device) that posted it. */
type KeptFormReader = Pick<SessionUser, "email"> & { deviceId?: string | null };

const readableBy = (id: string, user: KeptFormReader & { deviceId: string }) =>
  and(eq(keptForms.id, id), eq(keptForms.owner, throttleEmail(user.email)), eq(keptForms.deviceId, user.deviceId));

/**
 * The kept form, if it is the signed-in user's, was posted from this very
 * browser, is of this kind, and has not expired.
 */
export async function getKeptForm({
  id,
  user,
  form,
}: {
  id: string | null | undefined;
  user: KeptFormReader;
  form: KeptFormKind;
}): Promise<KeptForm | null> {
  if (!isKeyLike(id) || !user.deviceId) return null;
  const reader = { ...user, deviceId: user.deviceId };
  const [row] = await withDb((db) =>
    db
      .select()
      .from(keptForms)
      .where(and(readableBy(id, reader), eq(keptForms.form, form)))
      .limit(1),
  );
  if (!row || row.expiresAt <= clock.now()) return null;
  return {
    id: row.id,
    form: row.form as KeptFormKind,
    path: row.path,
    fields: row.fields,
    photo: row.photoKey ? { key: row.photoKey, name: row.photoName ?? "", size: row.photoSize ?? 0 } : null,
  };
}

/** What the page shows of a kept form. */
export function keptFormView(kept: KeptForm): KeptFormView {
  return { key: kept.id, photo: Boolean(kept.photo), message: keptFormMessage(Boolean(kept.photo)) };
}

/** The kept photo's bytes, to be saved as if just sent. */
export async function keptPhotoBytes(kept: KeptForm, store: Storage = storage()): Promise<Buffer | null> {
  if (!kept.photo) return null;
  const object = await store.get(kept.photo.key);
  if (!object) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Removes a kept form once used, with its photo; only in the browser that posted it. */
export async function dropKeptForm(
  { id, user }: { id: string | null | undefined; user: KeptFormReader },
  store: Storage = storage(),
): Promise<void> {
  if (!isKeyLike(id) || !user.deviceId) return;
  const reader = { ...user, deviceId: user.deviceId };
  const rows = await withDb((db) =>
    db.delete(keptForms).where(readableBy(id, reader)).returning({ photoKey: keptForms.photoKey }),
  );
  for (const row of rows) await removeFile(row.photoKey, store);
}

/** Removes expired kept forms with their photos, and kept photos no row names (a keep that failed midway). */
export async function sweepKeptForms(
  { now = clock.now() }: { now?: Date } = {},
  store: Storage = storage(),
): Promise<{ forms: number; files: number }> {
  const expired = await withDb((db) =>
    db.delete(keptForms).where(lt(keptForms.expiresAt, now)).returning({ photoKey: keptForms.photoKey }),
  );
  let files = 0;
  for (const row of expired) {
    if (row.photoKey) {
      await removeFile(row.photoKey, store);
      files++;
    }
  }
  const cutoff = now.getTime() - STRAY_MIN_AGE_MS;
  const stored = (await store.list(`${KEPT_FOLDER}/`)).filter((f) => f.lastModified.getTime() < cutoff);
  if (stored.length) {
    const named = new Set(
      (
        await withDb((db) =>
          db
            .select({ key: keptForms.photoKey })
            .from(keptForms)
            .where(sql`${keptForms.photoKey} is not null`),
        )
      ).map((r) => r.key),
    );
    for (const file of stored) {
      if (named.has(file.key)) continue;
      await removeFile(file.key, store);
      files++;
    }
  }
  return { forms: expired.length, files };
}

/**
 * Reads the posted form (multipart with at most one photo, or url-encoded);
 * "too-large" past the limits, null when it is not a form that can be read.
 */
async function readPostedForm(
  request: Request,
  withPhoto: boolean,
): Promise<
  | {
      fields: Record<string, string>;
      photo: { file: string; name: string; size: number } | null;
      cleanup(): Promise<void>;
    }
  | "too-large"
  | null
> {
  const type = request.headers.get("Content-Type") ?? "";
  const fieldsOf = (params: URLSearchParams) => {
    const out: Record<string, string> = {};
    for (const [name, value] of params) if (name !== CSRF_FIELD) out[name] = value;
    return out;
  };
  if (/^multipart\/form-data/i.test(type)) {
    // Album details are kept without the photos chosen beside them (a batch of them is not a detail).
    const upload = await parseUpload(request, {
      maxFiles: withPhoto ? 1 : 20,
      maxFields: 500,
      maxFieldBytes: FORM_BYTES,
    });
    if (!upload.ok) return upload.status === 413 ? "too-large" : null;
    // A cap per field alone would let 500 fields hold 500 MB.
    if (fieldBytes(upload.fields) > FORM_BYTES) {
      await upload.cleanup();
      return "too-large";
    }
    const chosen = withPhoto ? upload.files.find((f) => f.size > 0) : undefined;
    // Only a photo an upload would take is kept (the same checks); anything
    // else is dropped and the typed text kept alone.
    const file =
      chosen &&
      (await checkImage(chosen.path).then(
        () => true,
        () => false,
      ))
        ? chosen
        : undefined;
    return {
      fields: fieldsOf(upload.fields),
      photo: file ? { file: file.path, name: file.name, size: file.size } : null,
      cleanup: upload.cleanup,
    };
  }
  if (/^application\/x-www-form-urlencoded/i.test(type)) {
    const body = await readBodyCapped(request, FORM_BYTES);
    if (!body) return "too-large";
    return {
      fields: fieldsOf(new URLSearchParams(new TextDecoder().decode(body))),
      photo: null,
      cleanup: async () => {},
    };
  }
  return null;
}

function fieldBytes(params: URLSearchParams): number {
  let total = 0;
  for (const [name, value] of params) total += Buffer.byteLength(name) + Buffer.byteLength(value);
  return total;
}

/** The page a post came from, as a browser opens it: a script's data request (`/x.data?_routes=…`) names the page `/x`. */
function pageOf(request: Request): string {
  const url = new URL(request.url);
  const pathname = url.pathname.replace(/\.data$/, "");
  url.searchParams.delete("_routes");
  url.searchParams.delete("index");
  return `${pathname}${url.search}`;
}

/**
 * The guard of a form's action that must not lose what was typed. With a
 * session it is requireUser. Without one, a same-origin post from a
 * remembered device of an existing account is kept and the browser is sent to
 * sign in and back to the form (?zachowane=key); for an upload route
 * (`reply: "json"`) the answer is `{ redirectTo }` with that address. Fields
 * over 1 MB together are refused with 413 'Formularz jest zbyt duży.'.
 * Anything else is refused as requireUser refuses it, nothing kept.
 */
export async function requireUserOrKeep(
  request: Request,
  { form, path, reply = "page" }: { form: KeptFormKind; path?: string; reply?: "page" | "json" },
  store: Storage = storage(),
): Promise<SessionUser> {
  const session = await readSession(request);
  if (session.user) return requireReadUser(request, session);
  // A forgotten device, or a removed account's, names no row: nothing is kept for it.
  const device = await deviceOwner(request);
  if (!device || !isSameOrigin(request)) return requireReadUser(request, session);
  // Album details and history photos are kept without the photos sent beside them (a batch is not a detail).
  const posted = await readPostedForm(request, form !== "album-details" && form !== "history-photo");
  if (posted === "too-large") throw formTooLarge();
  if (!posted) return requireReadUser(request, session);
  const back = path ?? pageOf(request);
  let id: string;
  try {
    id = await keepForm(
      {
        owner: throttleEmail(device.email),
        deviceId: device.id,
        form,
        path: back,
        fields: posted.fields,
        photo: posted.photo,
      },
      store,
    );
    await touchDevice(device.id);
  } catch (error) {
    // Storage or database down: answered as without a device token.
    logger.error({ err: error }, "keeping a form after its session ended failed");
    return requireReadUser(request, session);
  } finally {
    await posted.cleanup();
  }
  const to = signInAndBack(back, id);
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (session.hadCookie) headers.append("Set-Cookie", await clearSessionCookie());
  if (reply === "json") throw Response.json({ redirectTo: to }, { headers });
  throw redirect(to, { headers });
}
