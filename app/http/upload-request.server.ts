// A multipart post read for a route: its files wait in temporary files while
// the feature uses them, and are removed after, whatever came of it.
import { type UploadLimits, type UploadResult, parseUpload } from "~/services/upload.server";

export async function withUpload<T>(
  request: Request,
  limits: Partial<UploadLimits>,
  use: (upload: UploadResult) => Promise<T>,
): Promise<T> {
  return withReadForm(await parseUpload(request, limits), use);
}

/** Hands a form already read to `use`, and removes its temporary files once `use` is done. */
export async function withReadForm<T>(form: UploadResult, use: (form: UploadResult) => Promise<T>): Promise<T> {
  try {
    return await use(form);
  } finally {
    if (form.ok) await form.cleanup();
  }
}
