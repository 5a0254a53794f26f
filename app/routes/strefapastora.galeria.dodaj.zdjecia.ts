import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireUser } from "~/features/auth/auth.server";
import { MAX_FILES_PER_POST, type PhotosResponse, photosPost } from "~/features/galleries/editor.server";
import { withForm } from "~/http/album-request.server";
import { ADD_GALLERY_PATH } from "~/lib/paths";

// The album editor's script posts here: one photo per request, or a new
// order after a drag (see photosPost). Nothing to show on a GET.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect(ADD_GALLERY_PATH);
}

// A resource route: a plain JSON Response, whatever the router does with page data.
const answer = (body: PhotosResponse, status: number) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return withForm(request, { maxFiles: MAX_FILES_PER_POST }, async (form) => {
    if (!form.ok) return answer({ error: form.message }, form.status);
    const { body, status } = await photosPost(user, form);
    return answer(body, status);
  });
}
