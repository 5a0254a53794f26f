import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { URLENCODED_FORM_MAX_BYTES } from "~/features/auth/csrf.server";
import { getPastorEvent, occurrenceOf } from "~/features/events/events-admin.server";
import { submitOccurrenceForm } from "~/features/events/event-form.server";
import { dayAndTime } from "~/features/events/event-fields";
import { DOCUMENT_POST, Field, FormError } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { CsrfInput, PastorBar } from "~/components/pastor";
import { redirectWithFlash } from "~/http/flash.server";
import { UPLOAD_MESSAGES } from "~/services/upload.server";
import { seo } from "~/features/seo/seo";
import { PASTOR_EVENTS_PATH, editEventPath, eventOccurrenceAdminPath } from "~/lib/paths";
import { readSmallForm } from "~/http/small-form.server";

export const meta: MetaFunction = (args) => seo(args, { page: "Termin wydarzenia" });

/** The id of the address, or 0 (no event has it) when it is not a plain number. */
const idOf = (param: string | undefined) => (param && /^[1-9][0-9]{0,9}$/.test(param) ? Number(param) : 0);

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const event = await getPastorEvent(idOf(params.id));
  const occurrence = event ? occurrenceOf(event, params.day ?? "") : null;
  if (!event || !occurrence) {
    return data({ email: user.email, csrf: user.csrf, event: null, occurrence: null }, { status: 404 });
  }
  return {
    email: user.email,
    csrf: user.csrf,
    event: { id: event.id, title: event.title, allDay: event.startTime === null, startTime: event.startTime },
    occurrence,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = idOf(params.id);
  const key = params.day ?? "";
  if (Number(request.headers.get("Content-Length")) > URLENCODED_FORM_MAX_BYTES) {
    return data({ error: UPLOAD_MESSAGES.malformed, typed: null, errors: {} }, { status: 413 });
  }
  const outcome = await submitOccurrenceForm(await readSmallForm(request), id, key, user);
  if (outcome.ok) return redirectWithFlash(editEventPath(id), outcome.message);
  return data({ error: outcome.error, typed: outcome.typed, errors: outcome.errors }, { status: outcome.status });
}

/** Every answer of the action that is not a redirect. */
interface Reply {
  error?: string;
  typed: { date: string; time: string; endTime: string } | null;
  errors: { date?: string; time?: string; endTime?: string };
}

export default function EventOccurrence() {
  const { email, event, occurrence } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as Reply | undefined;
  if (!event || !occurrence) {
    return (
      <section className="page pastor">
        <PastorBar email={email} />
        <h1 className="empty">Nie ma takiego terminu</h1>
        <BackLink to={PASTOR_EVENTS_PATH} />
      </section>
    );
  }
  const action = eventOccurrenceAdminPath(event.id, occurrence.key);
  const errors = reply?.errors ?? {};
  const typed = reply?.typed ?? {
    date: occurrence.date,
    time: occurrence.time ?? "",
    endTime: occurrence.moved ? (occurrence.endTime ?? "") : "",
  };
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <BackLink to={editEventPath(event.id)} />
      <h1>Termin: {event.title}</h1>
      <p>
        {dayAndTime(occurrence.date, occurrence.time)}
        {occurrence.cancelled ? <strong className="draft-mark"> (odwołane)</strong> : null}
        {occurrence.removed ? <strong className="draft-mark"> (usunięte z kalendarza)</strong> : null}
        {occurrence.moved ? <span className="draft-mark"> (przeniesione z {occurrence.key})</span> : null}
      </p>
      <FormError message={reply?.error} />
      <Form method="post" action={action} className="pastor-actions" reloadDocument={DOCUMENT_POST}>
        <CsrfInput />
        {occurrence.cancelled || occurrence.moved || occurrence.removed ? (
          <button type="submit" name="intent" value="restore" className="secondary">
            przywróć ({dayAndTime(occurrence.key, event.startTime)})
          </button>
        ) : null}
        {occurrence.cancelled || occurrence.removed ? null : (
          <button type="submit" name="intent" value="cancel">
            odwołaj ten termin
          </button>
        )}
        {occurrence.removed ? null : (
          <button type="submit" name="intent" value="remove" className="secondary">
            usuń ten termin
          </button>
        )}
      </Form>
      <p className="field-note">
        Odwołany termin zostaje w kalendarzu oznaczony jako odwołany; usunięty znika z kalendarza (np. wpisany przez
        pomyłkę).
      </p>
      <h2>Przenieś ten termin</h2>
      <p className="field-note">Pozostałe terminy się nie zmienią.</p>
      <Form method="post" action={action} className="form" key={JSON.stringify(typed)} reloadDocument={DOCUMENT_POST}>
        <CsrfInput />
        <Field
          label="Nowy dzień"
          id="move-date"
          name="date"
          type="date"
          defaultValue={typed.date}
          error={errors.date}
        />
        {event.allDay ? null : (
          <>
            <Field
              label="Nowa godzina początku"
              id="move-time"
              name="time"
              type="time"
              defaultValue={typed.time}
              error={errors.time}
            />
            <Field
              label="Nowa godzina końca (opcjonalnie)"
              id="move-end"
              name="endTime"
              type="time"
              defaultValue={typed.endTime}
              error={errors.endTime}
            />
          </>
        )}
        <button type="submit" name="intent" value="move">
          przenieś
        </button>
      </Form>
    </section>
  );
}
