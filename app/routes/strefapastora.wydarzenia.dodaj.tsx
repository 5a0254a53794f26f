import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { requireUserOrKeep } from "~/features/kept-forms/kept-forms.server";
import { KEPT_PARAM } from "~/features/kept-forms/messages";
import {
  EVENT_UPLOAD_LIMITS,
  eventFormOutcome,
  keptEventForm,
  submitEventUpload,
} from "~/features/events/event-form.server";
import { EMPTY_EVENT_FORM } from "~/features/events/event-fields";
import { EventForm } from "~/features/events/event-form";
import { BackLink } from "~/components/layout";
import { PastorBar } from "~/components/pastor";
import { pageReply } from "~/http/form-reply.server";
import { seo } from "~/features/seo/seo";
import { ADD_EVENT_PATH, ADD_EVENT_UPLOAD_PATH, PASTOR_EVENTS_PATH } from "~/lib/paths";
import { withUpload } from "~/http/upload-request.server";

export const meta: MetaFunction = (args) => seo(args, { page: "Nowe wydarzenie" });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const kept = await keptEventForm(new URL(request.url).searchParams.get(KEPT_PARAM), user, "add");
  return {
    email: user.email,
    csrf: user.csrf,
    values: kept?.values ?? EMPTY_EVENT_FORM,
    kept: kept ? { key: kept.key, message: kept.message, photo: kept.photo } : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  // A post after the session ended is kept, and brought back after sign-in.
  const user = await requireUserOrKeep(request, { form: "event-add", path: ADD_EVENT_PATH });
  return withUpload(request, EVENT_UPLOAD_LIMITS, async (upload) =>
    pageReply(eventFormOutcome(await submitEventUpload(upload, { kind: "add" }, user))),
  );
}

export default function AddEvent() {
  const { email, values, kept } = useLoaderData<typeof loader>();
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <BackLink to={PASTOR_EVENTS_PATH} />
      <h1>Nowe wydarzenie</h1>
      <EventForm
        action={ADD_EVENT_PATH}
        uploadUrl={ADD_EVENT_UPLOAD_PATH}
        submitLabel="dodaj"
        values={values}
        version={0}
        kept={kept}
      />
    </section>
  );
}
