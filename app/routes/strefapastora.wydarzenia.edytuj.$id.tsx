import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { requireUserOrKeep } from "~/features/kept-forms/kept-forms.server";
import { KEPT_PARAM } from "~/features/kept-forms/messages";
import { getPastorEvent, nextOccurrences } from "~/features/events/events-admin.server";
import { dayAndTime } from "~/features/events/event-fields";
import {
  EVENT_UPLOAD_LIMITS,
  eventFormOf,
  eventFormOutcome,
  keptEventForm,
  submitEventUpload,
} from "~/features/events/event-form.server";
import { EventForm } from "~/features/events/event-form";
import { photoViews } from "~/features/events/event-photo.server";
import { PublicationBadge } from "~/features/publishing/publish-controls";
import { BackLink } from "~/components/layout";
import { CsrfInput, PastorBar } from "~/components/pastor";
import { DOCUMENT_POST, FlashMessage } from "~/components/forms";
import { readFlash } from "~/http/flash.server";
import { pageReply } from "~/http/form-reply.server";
import { seo } from "~/features/seo/seo";
import { PASTOR_EVENTS_PATH, editEventPath, editEventUploadPath, eventOccurrenceAdminPath } from "~/lib/paths";
import { withUpload } from "~/http/upload-request.server";

export const meta: MetaFunction = (args) => seo(args, { page: "Edycja wydarzenia" });

/** The id of the address, or 0 (no event has it) when it is not a plain number. */
const idOf = (param: string | undefined) => (param && /^[1-9][0-9]{0,9}$/.test(param) ? Number(param) : 0);

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const event = await getPastorEvent(idOf(params.id));
  if (!event) {
    return data(
      { email: user.email, csrf: user.csrf, event: null, kept: null, flash: null, occurrences: [] },
      { status: 404 },
    );
  }
  const kept = await keptEventForm(new URL(request.url).searchParams.get(KEPT_PARAM), user, "edit");
  const { flash, headers } = await readFlash(request);
  return data(
    {
      email: user.email,
      flash,
      occurrences: event.repeat === "none" ? [] : nextOccurrences(event),
      csrf: user.csrf,
      event: {
        id: event.id,
        publication: event.publication,
        photo: photoViews(event).image,
        // A kept edit still counts from the version it began from: what changed meanwhile is not overwritten unseen.
        values: kept ? kept.values : eventFormOf(event),
        version: kept ? kept.version : event.version,
      },
      kept: kept ? { key: kept.key, message: kept.message, photo: kept.photo } : null,
    },
    { headers },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  // A post after the session ended is kept, and brought back after sign-in.
  const user = await requireUserOrKeep(request, { form: "event-edit", path: editEventPath(idOf(params.id)) });
  const id = idOf(params.id);
  return withUpload(request, EVENT_UPLOAD_LIMITS, async (upload) =>
    pageReply(eventFormOutcome(await submitEventUpload(upload, { kind: "edit", id }, user))),
  );
}

export default function EditEvent() {
  const { email, event, kept, flash, occurrences } = useLoaderData<typeof loader>();
  if (!event) {
    return (
      <section className="page pastor">
        <PastorBar email={email} />
        <h1 className="empty">Nie ma takiego wydarzenia</h1>
        <BackLink to={PASTOR_EVENTS_PATH} />
      </section>
    );
  }
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <BackLink to={PASTOR_EVENTS_PATH} />
      <h1>Edycja wydarzenia</h1>
      <FlashMessage message={flash} />
      <p>
        Stan: <PublicationBadge publication={event.publication} />
      </p>
      <EventForm
        action={editEventPath(event.id)}
        uploadUrl={editEventUploadPath(event.id)}
        submitLabel={event.publication.state === "draft" ? "zapisz i opublikuj" : "zapisz"}
        values={event.values}
        version={event.version}
        kept={kept}
        currentPhoto={event.photo}
        currentHref={editEventPath(event.id)}
      />
      {occurrences.length ? (
        <section aria-labelledby="terminy" className="event-occurrences">
          <h2 id="terminy">Najbliższe terminy</h2>
          <p className="field-note">
            Pojedynczy termin można odwołać (zostanie na liście w kalendarzu jako odwołany), usunąć (zniknie z
            kalendarza) albo przenieść; pozostałe się nie zmienią.
          </p>
          <ul className="events-edit">
            {occurrences.map((o) => {
              const which = <span className="visually-hidden">: {dayAndTime(o.date, o.time)}</span>;
              return (
                <li key={o.key}>
                  <p>
                    {dayAndTime(o.date, o.time)}
                    {o.cancelled ? <strong className="draft-mark"> (odwołane)</strong> : null}
                    {o.removed ? <strong className="draft-mark"> (usunięte z kalendarza)</strong> : null}
                    {o.moved ? <span className="draft-mark"> (przeniesione z {o.key})</span> : null}
                  </p>
                  <Form
                    method="post"
                    action={eventOccurrenceAdminPath(event.id, o.key)}
                    className="card-actions"
                    reloadDocument={DOCUMENT_POST}
                  >
                    <CsrfInput />
                    {o.cancelled || o.moved || o.removed ? (
                      <button type="submit" name="intent" value="restore" className="secondary">
                        przywróć{which}
                      </button>
                    ) : null}
                    {o.cancelled || o.removed ? null : (
                      <button type="submit" name="intent" value="cancel" className="secondary">
                        odwołaj{which}
                      </button>
                    )}
                    {o.removed ? null : (
                      <button type="submit" name="intent" value="remove" className="secondary">
                        usuń termin{which}
                      </button>
                    )}
                    <Link to={eventOccurrenceAdminPath(event.id, o.key)}>przenieś{which}</Link>
                  </Form>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
    </section>
  );
}
