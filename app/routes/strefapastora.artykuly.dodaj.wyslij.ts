import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireUser } from "~/features/auth/auth.server";
import { submitArticleForm } from "~/features/articles/article-form.server";
import { uploadReply } from "~/http/form-reply.server";
import { ADD_ARTICLE_PATH } from "~/lib/paths";

// The add form's upload route: the page's script posts the same form here
// and gets JSON (app/components/upload-progress.tsx). Nothing to show on a GET.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect(ADD_ARTICLE_PATH);
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  return uploadReply(await submitArticleForm(request, { kind: "add" }));
}
