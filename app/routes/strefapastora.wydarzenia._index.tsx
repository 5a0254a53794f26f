import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { URLENCODED_FORM_MAX_BYTES } from "~/features/auth/csrf.server";
import { binEvent, getPastorEvent, listPastorEvents } from "~/features/events/events-admin.server";
import { eventListForm } from "~/features/events/event-form.server";
import { dayAndTime, repeatSummary } from "~/features/events/event-fields";
import { PublicationBadge } from "~/features/publishing/publish-controls";
import { ConfirmButton, ConfirmPage } from "~/components/confirm";
import { FlashMessage, FormError } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { PastorBar } from "~/components/pastor";
import { readFlash, redirectWithFlash } from "~/http/flash.server";
import { UPLOAD_MESSAGES } from "~/services/upload.server";
import { seo } from "~/features/seo/seo";
import { ADD_EVENT_PATH, CALENDAR_PATH, PANEL_PATH, PASTOR_EVENTS_PATH, editEventPath } from "~/lib/paths";
import { readSmallForm } from "~/http/small-form.server";

export const meta: MetaFunction = (args) => seo(args, { page: "Wydarzenia" });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { flash, headers } = await readFlash(request);
  const events = await listPastorEvents();
  return data({ email: user.email, csrf: user.csrf, flash, events }, { headers });
}

const deleteQuestion = (title: string) => `Przenieść wydarzenie „${title}” do kosza?`;

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (Number(request.headers.get("Content-Length")) > URLENCODED_FORM_MAX_BYTES) {
    return data({ error: UPLOAD_MESSAGES.malformed }, { status: 413 });
  }
  const parsed = eventListForm.safeParse(Object.fromEntries(await readSmallForm(request)));
  if (!parsed.success) return data({ error: "Nieznane polecenie formularza." }, { status: 400 });
  const { id, confirmed } = parsed.data;
  const done = (message: string) => redirectWithFlash(PASTOR_EVENTS_PATH, message);
  const gone = "Tego wydarzenia już nie ma.";
  const event = await getPastorEvent(id);
  if (!event) return done(gone);
  if (confirmed !== "1") return { confirm: { id, question: deleteQuestion(event.title) } };
  const result = await binEvent(id, { actor: user });
  return done(result.ok ? `Przeniesiono wydarzenie „${result.title}” do kosza.` : gone);
}

/** Every answer of the action that is not a redirect. */
interface Reply {
  error?: string;
  confirm?: { id: number; question: string };
}

export default function PastorEvents() {
  const { email, flash, events } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as Reply | undefined;
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <h1>Wydarzenia</h1>
      <FlashMessage message={flash} />
      <p className="pastor-actions">
        <Link className="button" to={ADD_EVENT_PATH}>
          dodaj wydarzenie
        </Link>
        <a href={CALENDAR_PATH} target="_blank" rel="noreferrer">
          kalendarz na stronie
        </a>
        <BackLink to={PANEL_PATH} />
      </p>
      <FormError message={reply?.error} />
      {reply?.confirm ? (
        <ConfirmPage
          action={PASTOR_EVENTS_PATH}
          question={reply.confirm.question}
          cancelTo={PASTOR_EVENTS_PATH}
          fields={{ id: String(reply.confirm.id) }}
          confirmLabel="tak, do kosza"
          reloadDocument
        />
      ) : null}
      {events.length === 0 ? (
        <p className="empty">Nie ma żadnych wydarzeń.</p>
      ) : (
        <ul className="pastor-list events-edit">
          {events.map((e) => {
            const which = <span className="visually-hidden">: {e.title}</span>;
            return (
              <li key={e.id}>
                <h2>{e.title}</h2>
                <p>
                  <PublicationBadge publication={e.publication} />
                  {e.upcoming ? null : <span className="draft-mark"> (minione)</span>}
                </p>
                <p>
                  {e.when ? `${e.upcoming ? "Najbliżej" : "Ostatnio"}: ${dayAndTime(e.when.date, e.when.time)}` : null}
                  {e.place ? ` · ${e.place}` : null}
                </p>
                <p className="field-note">{repeatSummary(e.rule)}</p>
                <div className="card-actions">
                  <Link to={editEventPath(e.id)}>edytuj{which}</Link>
                  <ConfirmButton
                    action={PASTOR_EVENTS_PATH}
                    question={deleteQuestion(e.title)}
                    fields={{ id: String(e.id) }}
                    reloadDocument
                  >
                    usuń{which}
                  </ConfirmButton>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
