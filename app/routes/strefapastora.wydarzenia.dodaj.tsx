import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { requireUserOrKeep } from "~/features/kept-forms/kept-forms.server";
import { KEPT_PARAM } from "~/features/kept-forms/messages";
import { EVENT_UPLOAD_LIMITS, keptEventForm, submitEventUpload } from "~/features/events/event-form.server";
import { EMPTY_EVENT_FORM } from "~/features/events/event-fields";
import { EventForm } from "~/features/events/event-form";
import { BackLink } from "~/components/layout";
import { PastorBar } from "~/components/pastor";
import { redirectWithFlash } from "~/http/flash.server";
import { seo } from "~/features/seo/seo";
import { ADD_EVENT_PATH, PASTOR_EVENTS_PATH } from "~/lib/paths";
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
  const outcome = await withUpload(request, EVENT_UPLOAD_LIMITS, (upload) =>
    submitEventUpload(upload, { kind: "add" }, user),
  );
  if (outcome.ok) return redirectWithFlash(PASTOR_EVENTS_PATH, outcome.message);
  return data({ error: outcome.error, refused: outcome.refused }, { status: outcome.status });
}

export default function AddEvent() {
  const { email, values, kept } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <BackLink to={PASTOR_EVENTS_PATH} />
      <h1>Nowe wydarzenie</h1>
      <EventForm
        action={ADD_EVENT_PATH}
        submitLabel="dodaj"
        values={reply?.refused?.values ?? values}
        version={0}
        errors={reply?.refused?.errors}
        error={reply?.error}
        kept={kept}
        photoLost={reply?.refused?.photoLost}
      />
    </section>
  );
}
