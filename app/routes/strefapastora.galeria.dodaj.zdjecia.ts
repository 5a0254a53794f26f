import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireUser } from "~/features/auth/auth.server";
import { photosAction } from "~/features/galleries/editor.server";
import { ADD_GALLERY_PATH } from "~/lib/paths";

// The album editor's script posts here: one photo per request, or a new
// order after a drag (see photosAction). Nothing to show on a GET.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect(ADD_GALLERY_PATH);
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return photosAction(request, user);
}
