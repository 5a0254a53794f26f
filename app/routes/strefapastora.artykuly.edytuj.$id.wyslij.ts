import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireUser } from "~/features/auth/auth.server";
import { submitArticleForm } from "~/features/articles/article-form.server";
import { uploadReply } from "~/http/form-reply.server";
import { editArticlePath } from "~/lib/paths";

// The edit form's upload route: the page's script posts the same form here
// and gets JSON (app/components/upload-progress.tsx). Nothing to show on a GET.
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect(editArticlePath(params.id ?? ""));
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request);
  return uploadReply(await submitArticleForm(request, { kind: "edit", id: params.id ?? "" }));
}
