import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireUser } from "~/features/auth/auth.server";
import { requireUserOrKeep } from "~/features/kept-forms/kept-forms.server";
import { EVENT_UPLOAD_LIMITS, eventFormOutcome, submitEventUpload } from "~/features/events/event-form.server";
import { uploadReply } from "~/http/form-reply.server";
import { editEventPath } from "~/lib/paths";
import { withUpload } from "~/http/upload-request.server";

/** The id of the address, or 0 (no event has it) when it is not a plain number. */
const idOf = (param: string | undefined) => (param && /^[1-9][0-9]{0,9}$/.test(param) ? Number(param) : 0);

// The edit form's upload route: the page's script posts the same form here
// and gets JSON (app/components/upload-progress.tsx). Nothing to show on a GET.
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect(editEventPath(idOf(params.id)));
}

export async function action({ request, params }: ActionFunctionArgs) {
  // After the session ended: kept, and the answer sends the page to sign in and back.
  const user = await requireUserOrKeep(request, {
    form: "event-edit",
    path: editEventPath(idOf(params.id)),
    reply: "json",
  });
  const id = idOf(params.id);
  return withUpload(request, EVENT_UPLOAD_LIMITS, async (upload) =>
    uploadReply(eventFormOutcome(await submitEventUpload(upload, { kind: "edit", id }, user))),
  );
}
