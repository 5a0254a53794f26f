import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireUser } from "~/features/auth/auth.server";
import { requireUserOrKeep } from "~/features/kept-forms/kept-forms.server";
import { ARTICLE_UPLOAD_LIMITS, submitArticleForm } from "~/features/articles/article-form.server";
import { uploadReply } from "~/http/form-reply.server";
import { ADD_ARTICLE_PATH } from "~/lib/paths";
import { withUpload } from "~/http/upload-request.server";

// The add form's upload route: the page's script posts the same form here
// and gets JSON (app/components/upload-progress.tsx). Nothing to show on a GET.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect(ADD_ARTICLE_PATH);
}

export async function action({ request }: ActionFunctionArgs) {
  // After the session ended: kept, and the answer sends the page to sign in and back.
  const user = await requireUserOrKeep(request, { form: "article-add", path: ADD_ARTICLE_PATH, reply: "json" });
  return withUpload(request, ARTICLE_UPLOAD_LIMITS, async (upload) =>
    uploadReply(await submitArticleForm(upload, { kind: "add" }, user)),
  );
}
