import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/features/auth/auth.server";
import { GalleryEditor } from "~/features/galleries/editor/gallery-editor";
import { editorAction, editorLoader, titleFromEditPath } from "~/features/galleries/editor.server";

// The slug is read from the raw path (see titleFromEditPath), not from params.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return editorLoader(request, user, { kind: "edit", title: titleFromEditPath(request) });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return editorAction(request, user, { kind: "edit", title: titleFromEditPath(request) });
}

export default function EditGallery() {
  return <GalleryEditor />;
}
