// The album editor (/strefapastora/galeria/dodaj and
// /strefapastora/galeria/edytuj/{slug}) and its script's upload and reorder
// endpoint. The routes check the session, read the form and the query, and
// turn what these functions return into the reply.
import type { SessionUser } from "~/features/auth/auth.server";
import { clock } from "~/services/clock.server";
import { church } from "~/content/church";
import { isValidKey } from "~/services/storage.server";
import type { ParsedUpload, UploadResult } from "~/services/upload.server";
import { isExternalImage } from "~/lib/image-variants";
import { todayIn } from "~/lib/text";
import { GALLERY_MESSAGES, type GalleryValues, normalizeTitle } from "~/features/galleries/album-values";
import {
  type DraftFeedback,
  type GalleryDraft,
  type ImageChange,
  altsChange,
  changeDraftImages,
  createDraft,
  getDraft,
  newDraftFolder,
  setDraftAlts,
  updateDraft,
} from "~/features/galleries/drafts.server";
import { addPhotos, hintFor, reportFor } from "~/features/galleries/draft-photos.server";
import { isTitleTaken, saveGallery } from "~/features/galleries/save.server";
import { instantToWallTime, publicationOf } from "~/features/publishing/publication.server";
import { type EditorImage, getGalleryForEditor, thumbnailUrl } from "~/features/galleries/galleries.server";
import { dropKeptForm, getKeptForm } from "~/features/kept-forms/kept-forms.server";
import { KEPT_PARAM, keptFormMessage } from "~/features/kept-forms/messages";
import {
  ADD_GALLERY_PATH,
  PASTOR_GALLERIES_PATH,
  UNKNOWN_GALLERY_REDIRECT,
  editGalleryPath,
  galleryPreviewPath,
  pastorGalleryPath,
} from "~/lib/paths";

/**
 * Photos one page post may carry. Without JavaScript the browser sends all
 * chosen files in one request; at 2–3 s per 12-megapixel photo on a small
 * server, ten stay well inside a proxy's 60 s. The script sends one file per
 * request, so its batches have no limit.
 */
export const MAX_FILES_PER_POST = 10;

export type EditorTarget =
  | { kind: "add" }
  /** `id`: the album the form was opened on, which still names it after another window renamed it. */
  | { kind: "edit"; title: string | null; id?: number | null };

/** What the editor's list shows of an image. */
export interface ClientImage extends EditorImage {
  thumb: string;
}

const toClient = (image: EditorImage): ClientImage => ({ ...image, thumb: thumbnailUrl(image) });

const emptyValues = (): GalleryValues => ({
  title: "",
  description: "",
  date: todayIn(church.timeZone, clock.now()),
  publishAt: "",
});

/** The fields the form sent; a field not sent keeps what the draft holds. */
function typedValues(fields: URLSearchParams): Partial<GalleryValues> {
  const out: Partial<GalleryValues> = {};
  for (const name of ["title", "description", "date", "publishAt"] as const) {
    const value = fields.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

/** Photo descriptions typed in the editor: fields `alt:{key}`. */
function typedAlts(fields: URLSearchParams): Map<string, string> {
  const alts = new Map<string, string>();
  for (const [name, value] of fields) {
    if (name.startsWith("alt:") && isValidKey(name.slice(4))) alts.set(name.slice(4), value);
  }
  return alts;
}

type Intent = { kind: "upload" } | { kind: "save"; draft: boolean } | Extract<ImageChange, { key: string }>;

/** A stored key, or the kept address of an imported photo whose download failed. */
const isImageKey = (key: string) => isValidKey(key) || isExternalImage(key);

function parseIntent(value: string | null): Intent | null {
  if (value === null || value === "upload") return { kind: "upload" };
  // 'zapisz' publishes; 'zapisz jako szkic' saves the album unpublished.
  if (value === "save" || value === "draft") return { kind: "save", draft: value === "draft" };
  const m = /^(up|down|cover|remove):(.+)$/s.exec(value);
  if (!m || !isImageKey(m[2])) return null;
  return { kind: m[1] as "up" | "down" | "cover" | "remove", key: m[2] };
}

interface EditorContext {
  user: SessionUser;
  gallery: Awaited<ReturnType<typeof getGalleryForEditor>>;
  draft: GalleryDraft | null;
  pageUrl: string;
}

type Resolved = EditorContext | { gone: "gallery" } | { gone: "draft"; pageUrl: string };

/** The album and the draft a request names, or which of them is gone. */
async function resolve(user: SessionUser, target: EditorTarget, draftParam: string | null): Promise<Resolved> {
  let gallery: EditorContext["gallery"] = null;
  if (target.kind === "edit") {
    gallery = target.title === null ? null : await getGalleryForEditor(target.title);
    if (!gallery && target.id) gallery = await getGalleryForEditor({ id: target.id });
    if (!gallery) return { gone: "gallery" };
  }
  const pageUrl = gallery ? editGalleryPath(gallery.title) : ADD_GALLERY_PATH;
  const draft = draftParam ? await getDraft({ id: draftParam, userId: user.id }) : null;
  if (draftParam && (!draft || draft.galleryId !== (gallery?.id ?? null))) return { gone: "draft", pageUrl };
  return { user, gallery, draft, pageUrl };
}

/** Where the pastor is sent instead: another page, with a one-time message or none. */
export interface EditorRedirect {
  redirectTo: string;
  flash?: string;
}

const draftGone = (pageUrl: string): EditorRedirect => ({ redirectTo: pageUrl, flash: GALLERY_MESSAGES.draftGone });
const galleryGone: EditorRedirect = { redirectTo: PASTOR_GALLERIES_PATH, flash: GALLERY_MESSAGES.galleryGone };
const unknownGallery: EditorRedirect = { redirectTo: UNKNOWN_GALLERY_REDIRECT };

/** Where a page request goes when its album or draft is gone. */
const goneRedirect = (resolved: Exclude<Resolved, EditorContext>): EditorRedirect =>
  resolved.gone === "gallery" ? unknownGallery : draftGone(resolved.pageUrl);

function startingValues({ draft, gallery }: Pick<EditorContext, "draft" | "gallery">): GalleryValues {
  if (draft) return draft.values;
  if (gallery) {
    const { title, description, date, publishAt } = gallery;
    return { title, description, date, publishAt: publishAt ? instantToWallTime(publishAt) : "" };
  }
  return emptyValues();
}

/**
 * Album details kept after the session ended (?zachowane=), read for the
 * page only: a GET writes nothing. The editor opens filled in with them (and
 * with the version the kept form began from); the form carries the key, and
 * the first post that keeps its values (a save, or a draft the post starts)
 * drops the kept form.
 */
async function keptDetails(keptId: string | null, ctx: EditorContext) {
  const kept = await getKeptForm({ id: keptId, user: ctx.user, form: "album-details" });
  if (!kept) return null;
  const fields = new URLSearchParams(kept.fields);
  return { id: kept.id, values: typedValues(fields), alts: typedAlts(fields), version: versionField(fields) };
}

/** The album version a form began from (its hidden field), or null. */
function versionField(fields: URLSearchParams): number | null {
  const v = fields.get("version");
  return v && /^\d{1,9}$/.test(v) ? Number(v) : null;
}

/** What the page's address says: the draft (?szkic=) and the kept form (?zachowane=) it opens. */
export interface EditorQuery {
  draft: string | null;
  kept: string | null;
}

/**
 * The editor page's data, or where to go instead when its album or draft is
 * gone. `flash` is the page's own message (kept details), which stands in for
 * a one-time message left by the previous request.
 */
export async function editorPage(user: SessionUser, target: EditorTarget, query: EditorQuery) {
  const ctx = await resolve(user, target, query.draft);
  if ("gone" in ctx) return goneRedirect(ctx);
  const kept = await keptDetails(query.kept, ctx);
  const stored = ctx.draft?.images ?? ctx.gallery?.images ?? [];
  const images = kept ? stored.map((i) => ({ ...i, alt: kept.alts.get(i.key) ?? i.alt })) : stored;
  return {
    page: {
      email: user.email,
      csrf: user.csrf,
      mode: target.kind,
      albumTitle: ctx.gallery?.title ?? null,
      pageUrl: ctx.pageUrl,
      backTo: ctx.gallery ? pastorGalleryPath(ctx.gallery.title) : PASTOR_GALLERIES_PATH,
      draftId: ctx.draft?.id ?? null,
      // The version the edit began from, sent back with the save (with a draft, the draft remembers it).
      version: kept?.version ?? ctx.draft?.baseVersion ?? ctx.gallery?.version ?? null,
      albumId: ctx.gallery?.id ?? null,
      values: kept ? { ...startingValues(ctx), ...kept.values } : startingValues(ctx),
      keptKey: kept?.id ?? null,
      images: images.map(toClient),
      feedback: ctx.draft?.feedback ?? null,
      // The saved album's state (null while adding one).
      publication: ctx.gallery ? publicationOf(ctx.gallery.publishAt) : null,
      // Nothing is saved yet: the kept details are in the form below.
      flash: kept ? keptFormMessage(false) : null,
      maxFiles: MAX_FILES_PER_POST,
    },
  };
}

/** The editor page's data as its component reads it. */
export type EditorPageData = Extract<Awaited<ReturnType<typeof editorPage>>, { page: unknown }>["page"];

/** A post answered with the form again: what was typed and what came of it. */
export interface EditorFormReply {
  values: GalleryValues;
  feedback: DraftFeedback | null;
}

export type EditorOutcome = EditorRedirect | { status: number; reply: EditorFormReply };

const hasProblem = (f: DraftFeedback) => Boolean(f.error || f.fieldErrors);

/**
 * One post of the editor form. Whatever it carries is applied in order:
 * chosen files are added (each on its own), typed values are kept, then the
 * button pressed is obeyed. When a draft holds the album the answer is a
 * redirect back to it (?szkic=), so a reload repeats nothing; when nothing
 * needs keeping (no draft yet) the form is rendered again with what was typed.
 * `form` is the post as read (its files already on disk), `draftParam` the
 * page's ?szkic=.
 */
export async function editorPost(
  user: SessionUser,
  target: EditorTarget,
  form: UploadResult,
  draftParam: string | null,
): Promise<EditorOutcome> {
  const albumId = Number(form.fields.get("albumId"));
  if (target.kind === "edit" && Number.isSafeInteger(albumId) && albumId > 0) target = { ...target, id: albumId };
  const ctx = await resolve(user, target, draftParam);
  if ("gone" in ctx) return goneRedirect(ctx);
  const { gallery, pageUrl } = ctx;
  const typed = typedValues(form.fields);
  const values = { ...startingValues(ctx), ...typed };
  let draftId = ctx.draft?.id ?? null;
  const feedback: DraftFeedback = {};

  const intent = form.ok ? parseIntent(form.fields.get("intent")) : null;
  // Kept details the page was opened with: they go once a save or a draft holds them.
  const keptDone = () => dropKeptForm({ id: form.fields.get(KEPT_PARAM), user });
  if (!form.ok) feedback.error = form.message;
  else if (!intent) feedback.error = "Nieznane polecenie formularza.";

  const folder = ctx.draft?.folder ?? newDraftFolder();
  const startDraft = () =>
    createDraft({
      userId: user.id,
      galleryId: gallery?.id ?? null,
      values,
      folder,
      baseVersion: versionField(form.fields),
    });
  let refused = false;
  let newBase: number | undefined;
  if (form.ok && intent && form.files.length) {
    const batch = await addPhotos({ draftId, folder, startDraft, photos: form.files });
    if (batch.gone) return draftGone(pageUrl);
    draftId = batch.draftId;
    feedback.report = reportFor(batch.results) ?? undefined;
    feedback.hint = hintFor(batch.results) ?? undefined;
    refused = batch.results.some((r) => !r.ok);
  }

  // Descriptions ride along with every button, like the typed title.
  const alts = typedAlts(form.fields);
  if (form.ok && intent && alts.size) {
    if (!draftId && gallery && altsChange(gallery.images, alts)) {
      draftId = await startDraft();
      if (!draftId) return unknownGallery;
    }
    if (draftId && !(await setDraftAlts({ draftId, alts }))) return draftGone(pageUrl);
  }

  switch (intent?.kind) {
    case "up":
    case "down":
    case "cover":
    case "remove": {
      if (!draftId) {
        // An album's own images: the first change starts a draft from it.
        if (!gallery?.images.some((i) => i.key === intent.key)) {
          feedback.error = GALLERY_MESSAGES.imageUnknown;
          break;
        }
        draftId = await startDraft();
        if (!draftId) return unknownGallery;
      }
      const status = await changeDraftImages({ draftId, change: intent });
      if (status === "draft-gone") return draftGone(pageUrl);
      if (status === "image-unknown") feedback.error = GALLERY_MESSAGES.imageUnknown;
      break;
    }
    case "save": {
      if (refused) {
        feedback.error = GALLERY_MESSAGES.notSavedRefused;
        break;
      }
      // Refused early when nothing is kept yet, so a refused save leaves no draft behind.
      if (!draftId && (await isTitleTaken(normalizeTitle(values.title), gallery?.id ?? null))) {
        feedback.error = GALLERY_MESSAGES.titleTaken;
        break;
      }
      const saved = await saveGallery({
        userId: user.id,
        draftId,
        galleryId: gallery?.id ?? null,
        values,
        baseVersion: ctx.draft?.baseVersion ?? versionField(form.fields),
        actor: user,
        intent: intent.draft ? "draft" : "publish",
      });
      if (saved.ok) await keptDone();
      if (saved.ok && saved.publication.state === "draft") {
        // Seen only in the preview until it is published.
        return { redirectTo: galleryPreviewPath(saved.title), flash: "Zapisano szkic galerii." };
      }
      if (saved.ok) {
        const flash = saved.publication.state === "scheduled" ? "Zaplanowano publikację galerii." : "Zapisano galerię.";
        return { redirectTo: pastorGalleryPath(saved.title), flash };
      }
      if (saved.conflict) {
        // Nothing saved; the next save (the pastor's choice) goes over the version now shown.
        feedback.error = saved.error;
        feedback.conflict = saved.conflict;
        newBase = saved.conflict.version;
        // Kept in a draft, so the page comes back under the album's current address (another window may have renamed it).
        draftId ??= await startDraft();
        if (!draftId) return galleryGone;
        break;
      }
      if (saved.gone === "gallery") return galleryGone;
      if (saved.gone === "draft") return draftGone(pageUrl);
      feedback.error = saved.error;
      feedback.fieldErrors = saved.fieldErrors;
      break;
    }
  }

  const shown = Object.keys(feedback).some((k) => feedback[k as keyof DraftFeedback] !== undefined);
  if (draftId) {
    if (!(await updateDraft({ draftId, values: typed, feedback: shown ? feedback : null, baseVersion: newBase }))) {
      return draftGone(pageUrl);
    }
    await keptDone();
    return { redirectTo: `${pageUrl}?szkic=${draftId}` };
  }
  const status = !form.ok ? form.status : feedback.conflict ? 409 : hasProblem(feedback) || refused ? 400 : 200;
  return { status, reply: { values, feedback: shown ? feedback : null } };
}

/** Answers of the script's endpoint; the editor shows `error` or each file's outcome. */
export type PhotosResponse =
  | { error: string }
  | {
      draftId: string | null;
      results: ({ name: string; ok: true; image: ClientImage } | { name: string; ok: false; reason: string })[];
      hint: string | null;
    }
  | { draftId: string };

/** The script's id of one file's upload: a short token, else none. */
function uploadIdField(value: string | null): string | null {
  if (!value || value.length > 64) return null;
  for (const c of value) if (!/[A-Za-z0-9_-]/.test(c)) return null;
  return value;
}

/** The script's answer and its status; the route sends it as JSON. */
export interface PhotosOutcome {
  body: PhotosResponse;
  status: number;
}

const answer = (body: PhotosResponse, status = 200): PhotosOutcome => ({ body, status });

/**
 * The editor's script: `intent=upload` with one file (or a few) per request,
 * so a batch of any size is many short requests with a progress bar each;
 * `intent=reorder` with the keys in their new order after a drag. Fields
 * `szkic` (the draft) or `galeria` (the album edited, before a draft exists)
 * say which album; typed values ride along and are kept in the draft.
 * `form` is the post as read, its files already on disk.
 */
export async function photosPost(user: SessionUser, form: ParsedUpload): Promise<PhotosOutcome> {
  const albumTitle = form.fields.get("galeria");
  const target: EditorTarget = albumTitle === null ? { kind: "add" } : { kind: "edit", title: albumTitle };
  const ctx = await resolve(user, target, form.fields.get("szkic") || null);
  if ("gone" in ctx) {
    return answer({ error: ctx.gone === "gallery" ? GALLERY_MESSAGES.galleryGone : GALLERY_MESSAGES.draftGone }, 409);
  }
  const typed = typedValues(form.fields);
  const values = { ...startingValues(ctx), ...typed };
  const folder = ctx.draft?.folder ?? newDraftFolder();
  const startDraft = () =>
    createDraft({
      userId: user.id,
      galleryId: ctx.gallery?.id ?? null,
      values,
      folder,
      baseVersion: versionField(form.fields),
    });
  let draftId = ctx.draft?.id ?? null;

  switch (form.fields.get("intent")) {
    case "upload": {
      if (form.files.length === 0) return answer({ error: "Nie wybrano żadnego zdjęcia." }, 400);
      const uploadId = uploadIdField(form.fields.get("uploadId"));
      const batch = await addPhotos({ draftId, folder, startDraft, photos: form.files, uploadId });
      if (batch.gone) return answer({ error: GALLERY_MESSAGES.draftGone }, 409);
      draftId = batch.draftId;
      // A report from an earlier no-script post is stale now.
      if (draftId) await updateDraft({ draftId, values: typed, feedback: null });
      if (draftId) await setDraftAlts({ draftId, alts: typedAlts(form.fields) });
      const results = batch.results.map((r) =>
        r.ok ? { ...r, image: toClient(r.image) } : { name: r.name, ok: false as const, reason: r.reason },
      );
      return answer({ draftId, results, hint: hintFor(batch.results) }, results.some((r) => r.ok) ? 200 : 422);
    }
    case "reorder": {
      const keys = form.fields.getAll("order").filter(isImageKey);
      if (!draftId) {
        if (!ctx.gallery) return answer({ error: GALLERY_MESSAGES.imageUnknown }, 400);
        draftId = await startDraft();
        if (!draftId) return answer({ error: GALLERY_MESSAGES.galleryGone }, 409);
      }
      const status = await changeDraftImages({ draftId, change: { kind: "order", keys } });
      if (status !== "ok") return answer({ error: GALLERY_MESSAGES.draftGone }, 409);
      await updateDraft({ draftId, values: typed });
      await setDraftAlts({ draftId, alts: typedAlts(form.fields) });
      return answer({ draftId });
    }
    default:
      return answer({ error: "Nieznane polecenie formularza." }, 400);
  }
}
