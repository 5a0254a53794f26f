import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/features/auth/auth.server";
import { requireUserOrKeep } from "~/features/kept-forms/kept-forms.server";
import { GalleryEditor } from "~/features/galleries/editor/gallery-editor";
import { editorAction, editorLoader } from "~/features/galleries/editor.server";
import { titleFromEditPath } from "~/http/album-request.server";
import { keepPageWhenNotSaved } from "~/components/forms";

// A post that met the outage leaves the page as it is, its message shown (see keepPageWhenNotSaved).
export const shouldRevalidate = keepPageWhenNotSaved;

// The slug is read from the raw path (see titleFromEditPath), not from params.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return editorLoader(request, user, { kind: "edit", title: titleFromEditPath(request) });
}

export async function action({ request }: ActionFunctionArgs) {
  // Details posted after the session ended are kept, and brought back into the editor after sign-in.
  const user = await requireUserOrKeep(request, { form: "album-details" });
  return editorAction(request, user, { kind: "edit", title: titleFromEditPath(request) });
}

export default function EditGallery() {
  return <GalleryEditor />;
}
