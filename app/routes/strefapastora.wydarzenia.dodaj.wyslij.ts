import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireUser } from "~/features/auth/auth.server";
import { requireUserOrKeep } from "~/features/kept-forms/kept-forms.server";
import { EVENT_UPLOAD_LIMITS, eventFormOutcome, submitEventUpload } from "~/features/events/event-form.server";
import { uploadReply } from "~/http/form-reply.server";
import { ADD_EVENT_PATH } from "~/lib/paths";
import { withUpload } from "~/http/upload-request.server";

// The add form's upload route: the page's script posts the same form here
// and gets JSON (app/components/upload-progress.tsx). Nothing to show on a GET.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect(ADD_EVENT_PATH);
}

export async function action({ request }: ActionFunctionArgs) {
  // After the session ended: kept, and the answer sends the page to sign in and back.
  const user = await requireUserOrKeep(request, { form: "event-add", path: ADD_EVENT_PATH, reply: "json" });
  return withUpload(request, EVENT_UPLOAD_LIMITS, async (upload) =>
    uploadReply(eventFormOutcome(await submitEventUpload(upload, { kind: "add" }, user))),
  );
}
