// What the album pages read from a request: the album title in the raw path,
// and the editor's form (url-encoded, or multipart with its photos).
import { UPLOAD_MESSAGES, type UploadResult, parseUpload } from "~/services/upload.server";
import { readCapped } from "~/services/streams.server";
import { withReadForm } from "~/http/upload-request.server";
import { EDIT_GALLERY_PREFIX, PASTOR_GALLERIES_PATH, PREVIEW_SUFFIX, titleFromSlug } from "~/lib/paths";

const FORM_BYTES = 1024 * 1024;

/**
 * The album title in a pastor URL, read from the raw (still encoded) path
 * as the public page does, so that titles holding `/`, `%`, `?` or `#`
 * round-trip. Null when the path does not name one.
 */
function titleFromPastorPath(request: Request, prefix: string): string | null {
  const { pathname } = new URL(request.url);
  if (!pathname.startsWith(prefix)) return null;
  // A literal slash is never part of a title (it is sent as %2F).
  return titleFromSlug(pathname.slice(prefix.length).replace(/\/$/, ""));
}

export const titleFromEditPath = (request: Request) => titleFromPastorPath(request, EDIT_GALLERY_PREFIX);
export const titleFromDetailPath = (request: Request) => titleFromPastorPath(request, `${PASTOR_GALLERIES_PATH}/`);

/** The album title of /strefapastora/galeria/{slug}/podglad. */
export function titleFromPreviewPath(request: Request): string | null {
  const { pathname } = new URL(request.url);
  const prefix = `${PASTOR_GALLERIES_PATH}/`;
  if (!pathname.startsWith(prefix) || !pathname.endsWith(PREVIEW_SUFFIX)) return null;
  return titleFromSlug(pathname.slice(prefix.length, -PREVIEW_SUFFIX.length));
}

/** Reads a small url-encoded form, or a multipart one with its files streamed to temporary files. */
export async function readForm(request: Request, { maxFiles = 0 } = {}): Promise<UploadResult> {
  const type = request.headers.get("Content-Type") ?? "";
  if (/^multipart\/form-data/i.test(type)) {
    return parseUpload(
      request,
      maxFiles
        ? { maxFiles, maxFieldBytes: FORM_BYTES }
        : // A form without files: stray ones are kept small, then ignored.
          { maxFiles: 5, maxFieldBytes: FORM_BYTES, maxFileBytes: FORM_BYTES, maxTotalBytes: FORM_BYTES + 64 * 1024 },
    );
  }
  const fields = new URLSearchParams();
  if (!/^application\/x-www-form-urlencoded/i.test(type) || !request.body) {
    return { ok: false, status: 400, message: UPLOAD_MESSAGES.malformed, fields };
  }
  const body = await readCapped(request.body, FORM_BYTES);
  if (!body) return { ok: false, status: 413, message: UPLOAD_MESSAGES.fieldTooLarge(FORM_BYTES), fields };
  const text = new TextDecoder().decode(body);
  return { ok: true, fields: new URLSearchParams(text), files: [], cleanup: async () => {} };
}

/** Reads the form, hands it to `use`, and removes its temporary files once `use` is done. */
export async function withForm<T>(
  request: Request,
  options: { maxFiles?: number },
  use: (form: UploadResult) => Promise<T>,
): Promise<T> {
  return withReadForm(await readForm(request, options), use);
}
