// One chosen file sent to the album's draft: shrunk first, sent with a
// progress bar, and sent again after growing waits when the network loses it.
import type { ClientImage, PhotosResponse } from "~/features/galleries/editor.server";
import type { UploadItem } from "~/features/galleries/editor/upload-list";
import { postWithProgress, retryWaits } from "~/components/upload-progress";
import { CSRF_HEADER } from "~/lib/csrf";
import { GALLERY_PHOTOS_PATH } from "~/lib/paths";
import { shrinkPhoto } from "~/lib/shrink-photo";

/** What came of one file: the photo added, or why not (and whether 'ponów' may send it again). */
export interface SendOutcome {
  image?: ClientImage;
  reason?: string;
  hint?: string | null;
  lost?: boolean;
}

const GATEWAY_ERRORS = [502, 503, 504];

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
): Promise<SendOutcome> {
  const fail = (reason: string, lost = false) => {
    update({ phase: "failed", message: `${chosen.name}: ${reason}`, lost });
    return { reason, lost };
  };
  update({ phase: "preparing" });
  // What is sent: a phone's 5 MB photo leaves as about 1 MB (the bars count the bytes sent).
  const file = await shrinkPhoto(chosen);
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
      onSent: () => update({ phase: "processing", loaded: file.size, total: file.size }),
    });
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
