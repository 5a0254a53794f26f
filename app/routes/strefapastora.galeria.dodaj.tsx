import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/features/auth/auth.server";
import { GalleryEditor } from "~/features/galleries/editor/gallery-editor";
import { editorAction, editorLoader } from "~/features/galleries/editor.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return editorLoader(request, user, { kind: "add" });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return editorAction(request, user, { kind: "add" });
}

export default function AddGallery() {
  return <GalleryEditor />;
}
