// A multipart post read for a route: its files wait in temporary files while
// the feature uses them, and are removed after, whatever came of it.
import { type UploadLimits, type UploadResult, parseUpload } from "~/services/upload.server";

export async function withUpload<T>(
  request: Request,
  limits: Partial<UploadLimits>,
  use: (upload: UploadResult) => Promise<T>,
): Promise<T> {
  const upload = await parseUpload(request, limits);
  try {
    return await use(upload);
  } finally {
    if (upload.ok) await upload.cleanup();
  }
}
