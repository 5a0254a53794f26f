// One chosen file sent to the album's draft: shrunk first, sent with a
// progress bar, and sent again after growing waits when the network loses it.
// A batch's files are shrunk one ahead of the uploads (shrinkInTurn).
import type { ClientImage, PhotosResponse } from "~/features/galleries/editor.server";
import { postWithProgress, retryWaits } from "~/lib/post-with-progress";
import { CSRF_HEADER } from "~/lib/csrf";
import { GALLERY_PHOTOS_PATH } from "~/lib/paths";
import { shrinkPhoto } from "~/lib/shrink-photo";

/** One file of a batch as its progress bar shows it. */
export interface UploadItem {
  id: string;
  name: string;
  loaded: number;
  total: number;
  phase: "queued" | "preparing" | "uploading" | "waiting" | "processing" | "done" | "failed";
  message?: string;
  /** Failed on the network (not refused by the server): 'ponów' may send it again. */
  lost?: boolean;
}

/** What came of one file: the photo added, or why not (and whether 'ponów' may send it again). */
export interface SendOutcome {
  image?: ClientImage;
  reason?: string;
  hint?: string | null;
  lost?: boolean;
}

const GATEWAY_ERRORS = [502, 503, 504];

/**
 * The files of a batch as they will be sent, shrunk one after another in the
 * order chosen: asking for file i starts shrinking file i + 1 too, so the
 * next photo is ready when the uplink is free and not shrunk while it waits.
 * One at a time, and at most one ahead, so a phone holds at most one decoded
 * photo and a shrunk one or two (about 1 MB each) at once.
 */
export function shrinkInTurn(files: File[]): (i: number) => Promise<File> {
  const shrunk = new Map<number, Promise<File>>();
  let last: Promise<unknown> = Promise.resolve();
  const start = (i: number): Promise<File> => {
    let file = shrunk.get(i);
    if (!file) {
      // A photo that can't be shrunk is sent as chosen (the server answers).
      file = last.then(() => shrinkPhoto(files[i])).catch(() => files[i]);
      shrunk.set(i, file);
      last = file;
    }
    return file;
  };
  return (i) => {
    const file = start(i);
    // Handed over: its sender holds it from now on.
    shrunk.delete(i);
    if (i + 1 < files.length) void start(i + 1);
    return file;
  };
}

export async function sendPhoto(
  chosen: File,
  id: string,
  csrf: string,
  /** Adds the typed values and the album's identity to the request. */
  commonFields: (body: FormData) => void,
  /** Moves this file's progress bar. */
  update: (patch: Partial<UploadItem>) => void,
  /** The draft the server put the photo in (the first photo creates it). */
  onDraft: (draftId: string) => void,
  {
    file: prepared,
    onLeft,
  }: {
    /** The file to send, already shrunk (shrinkInTurn); shrunk here when not given. */
    file?: Promise<File>;
    /** Called when this file stops using the uplink: its body all sent, or a try lost (again later does nothing). */
    onLeft?: () => void;
  } = {},
): Promise<SendOutcome> {
  const fail = (reason: string, lost = false) => {
    update({ phase: "failed", message: `${chosen.name}: ${reason}`, lost });
    return { reason, lost };
  };
  update({ phase: "preparing" });
  // What is sent: a phone's 5 MB photo leaves as about 1 MB (the bars count the bytes sent).
  const file = await (prepared ?? shrinkPhoto(chosen));
  let res: Awaited<ReturnType<typeof postWithProgress>> = null;
  // A weak signal: the same file again, after growing waits; the upload id
  // lets the server see a retry whose first try did arrive.
  for (const wait of [0, ...retryWaits()]) {
    if (wait) {
      update({ phase: "waiting", loaded: 0, total: file.size });
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const body = new FormData();
    commonFields(body);
    body.append("intent", "upload");
    body.append("uploadId", id);
    body.append("zdjecia", file, chosen.name);
    res = await postWithProgress(GALLERY_PHOTOS_PATH, body, {
      headers: { [CSRF_HEADER]: csrf },
      onProgress: (share) =>
        update({ phase: "uploading", loaded: Math.round((share ?? 0) * file.size), total: file.size }),
      // Sent; the server now checks and scales the photo.
      onSent: () => {
        update({ phase: "processing", loaded: file.size, total: file.size });
        onLeft?.();
      },
    });
    // A lost try leaves the uplink to the next file while this one waits to try again.
    if (!res || GATEWAY_ERRORS.includes(res.status)) onLeft?.();
    if (res && !GATEWAY_ERRORS.includes(res.status)) break;
  }
  if (!res) return fail("nie udało się wysłać pliku, sprawdź połączenie", true);
  if (GATEWAY_ERRORS.includes(res.status)) return fail(`nie udało się wysłać pliku (błąd ${res.status})`, true);
  // Null for a proxy's error page, say.
  const answer = res.json as PhotosResponse | null;
  if (!answer) return fail(`nie udało się wysłać pliku (błąd ${res.status})`);
  if ("error" in answer) return fail(answer.error.replace(/\.$/, ""));
  if (!("results" in answer) || answer.results.length === 0) return fail("nie udało się wysłać pliku");
  if (answer.draftId) onDraft(answer.draftId);
  const result = answer.results[0];
  if (!result.ok) {
    update({ phase: "failed", message: `${result.name}: ${result.reason}` });
    return { reason: result.reason, hint: answer.hint };
  }
  update({ phase: "done" });
  return { image: result.image };
}
