import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { requireUser } from "~/features/auth/auth.server";
import { requireUserOrKeep } from "~/features/kept-forms/kept-forms.server";
import { KEPT_PARAM } from "~/features/kept-forms/messages";
import { GalleryEditor } from "~/features/galleries/editor/gallery-editor";
import { MAX_FILES_PER_POST, editorPage, editorPost } from "~/features/galleries/editor.server";
import { withForm } from "~/http/album-request.server";
import { readFlash } from "~/http/flash.server";
import { redirectReply } from "~/http/form-reply.server";
import type { RouteHandle } from "~/root";
import { documentOnly } from "~/components/document-only";

// Not hydrated: the album script alone runs here (gallery-editor.tsx), and a
// link from a hydrated page loads the document.
export const handle: RouteHandle = { hydrate: false, script: "album-editor" };
export const clientLoader = documentOnly;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const query = new URL(request.url).searchParams;
  const found = await editorPage(user, { kind: "add" }, { draft: query.get("szkic"), kept: query.get(KEPT_PARAM) });
  if ("redirectTo" in found) throw await redirectReply(found);
  const { flash, headers } = await readFlash(request);
  return data({ ...found.page, flash: found.page.flash ?? flash }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  // Details posted after the session ended are kept, and brought back into the editor after sign-in.
  const user = await requireUserOrKeep(request, { form: "album-details" });
  const draft = new URL(request.url).searchParams.get("szkic");
  return withForm(request, { maxFiles: MAX_FILES_PER_POST }, async (form) => {
    const outcome = await editorPost(user, { kind: "add" }, form, draft);
    return "redirectTo" in outcome ? redirectReply(outcome) : data(outcome.reply, { status: outcome.status });
  });
}

export default function AddGallery() {
  return <GalleryEditor />;
}
