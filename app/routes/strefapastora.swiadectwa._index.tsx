import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { MoveButtons } from "~/components/move-buttons";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { testimonyListForm } from "~/http/form-schemas.server";
import { requireUser } from "~/features/auth/auth.server";
import { URLENCODED_FORM_MAX_BYTES } from "~/features/auth/csrf.server";
import {
  binTestimony,
  getPastorTestimony,
  listPastorTestimonies,
  moveTestimony,
  reorderTestimonies,
  setTestimonyHidden,
} from "~/features/church/testimonies.server";
import { ConfirmButton, ConfirmPage } from "~/components/confirm";
import { SortableList } from "~/components/sortable-list";
import { SavingNote, optimisticList, usePendingPosts, useScriptForm } from "~/components/optimistic";
import { STALE_ORDER_MESSAGE, parseOrder } from "~/lib/order";
import { DOCUMENT_POST, FlashMessage, FormError, keepPageWhenNotSaved } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { CsrfInput, PastorBar } from "~/components/pastor";
import { readFlash, redirectWithFlash } from "~/http/flash.server";
import { UPLOAD_MESSAGES } from "~/services/upload.server";
import { seo } from "~/features/seo/seo";
import { ADD_TESTIMONY_PATH, PANEL_PATH, PASTOR_TESTIMONIES_PATH, editTestimonyPath, testimonyPath } from "~/lib/paths";
import { readSmallForm } from "~/http/small-form.server";

// A post that met the outage leaves the page as it is, its message shown (see keepPageWhenNotSaved).
export const shouldRevalidate = keepPageWhenNotSaved;

export const meta: MetaFunction = (args) => seo(args, { page: "Świadectwa" });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { flash, headers } = await readFlash(request);
  const testimonies = (await listPastorTestimonies()).map(({ id, title, hidden }) => ({ id, title, hidden }));
  return data({ email: user.email, csrf: user.csrf, flash, testimonies }, { headers });
}

const deleteQuestion = (title: string) => `Przenieść świadectwo „${title}” do kosza?`;

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (Number(request.headers.get("Content-Length")) > URLENCODED_FORM_MAX_BYTES) {
    return data({ error: UPLOAD_MESSAGES.malformed }, { status: 413 });
  }
  const form = await readSmallForm(request);
  const parsed = testimonyListForm.safeParse(form ? Object.fromEntries(form) : null);
  if (!parsed.success) return data({ error: "Nieznane polecenie formularza." }, { status: 400 });
  const { intent, id, confirmed, order } = parsed.data;
  const done = (message: string) => redirectWithFlash(PASTOR_TESTIMONIES_PATH, message);
  const gone = "Tego świadectwa już nie ma.";
  if (intent === "up" || intent === "down") {
    const result = await moveTestimony(id, intent, { actor: user });
    return done(result.ok ? `Przesunięto świadectwo „${result.title}”.` : gone);
  }
  if (intent === "reorder") {
    const ids = parseOrder(order);
    if (!ids) return data({ error: "Nieznane polecenie formularza." }, { status: 400 });
    const result = await reorderTestimonies(ids, id, { actor: user });
    if (result.ok) return done(`Przesunięto świadectwo „${result.title}”.`);
    return done("stale" in result ? STALE_ORDER_MESSAGE : gone);
  }
  if (intent === "hide" || intent === "show") {
    const result = await setTestimonyHidden(id, intent === "hide", { actor: user });
    if (!result.ok) return done(gone);
    return done(
      intent === "hide"
        ? `Ukryto świadectwo „${result.title}”: nie widać go na stronie.`
        : `Świadectwo „${result.title}” jest znów widoczne na stronie.`,
    );
  }
  const testimony = await getPastorTestimony(id);
  if (!testimony) return done(gone);
  if (confirmed !== "1") return { confirm: { id, question: deleteQuestion(testimony.title) } };
  const result = await binTestimony(id, { actor: user });
  return done(result.ok ? `Przeniesiono świadectwo „${result.title}” do kosza.` : gone);
}

/** Every answer of the action that is not a redirect. */
interface Reply {
  error?: string;
  confirm?: { id: number; question: string };
}

type Testimony = ReturnType<typeof useLoaderData<typeof loader>>["testimonies"][number];

export default function PastorTestimonies() {
  const { email, flash, testimonies } = useLoaderData<typeof loader>();
  // Without JavaScript a refusal is the action's answer to the page; with it, each form's own (see TestimonyRow).
  const reply = useActionData<typeof action>() as Reply | undefined;
  // What the posts being sent will change, shown before the server answers (app/components/optimistic.tsx).
  const posts = usePendingPosts(PASTOR_TESTIMONIES_PATH);
  const rows = optimisticList(
    testimonies.map((t) => ({ ...t, label: t.title })),
    posts,
    (t, post) => {
      const intent = post.get("intent");
      return intent === "hide" || intent === "show" ? { ...t, hidden: intent === "hide" } : t;
    },
  );
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <h1>Świadectwa</h1>
      <FlashMessage message={flash} />
      <SavingNote busy={posts.length > 0} />
      <p className="pastor-actions">
        <Link className="button" to={ADD_TESTIMONY_PATH}>
          dodaj świadectwo
        </Link>
        <BackLink to={PANEL_PATH} />
      </p>
      <FormError message={reply?.error} />
      {reply?.confirm ? (
        <ConfirmPage
          action={PASTOR_TESTIMONIES_PATH}
          question={reply.confirm.question}
          cancelTo={PASTOR_TESTIMONIES_PATH}
          fields={{ id: String(reply.confirm.id) }}
          confirmLabel="tak, do kosza"
          reloadDocument={DOCUMENT_POST}
        />
      ) : null}
      {testimonies.length === 0 ? (
        <p className="empty">Nie ma żadnych świadectw.</p>
      ) : (
        <SortableList items={rows} action={PASTOR_TESTIMONIES_PATH} className="order-list testimonies-edit">
          {(t, i, count) => <TestimonyRow testimony={t} index={i} count={count} />}
        </SortableList>
      )}
    </section>
  );
}

/**
 * One testimony: its title, links, the form of 'ukryj'/'pokaż' and ↑/↓, and
 * its delete button. With JavaScript both forms are sent by the script and a
 * refusal is shown beside them.
 */
function TestimonyRow({ testimony: t, index, count }: { testimony: Testimony; index: number; count: number }) {
  const { fetcher, reply, onSubmit } = useScriptForm<Reply>(`testimony-${t.id}`);
  const which = <span className="visually-hidden">: {t.title}</span>;
  return (
    <>
      <h2>
        {t.title}
        {t.hidden ? <span className="draft-mark"> (ukryte)</span> : null}
      </h2>
      <div className="card-actions">
        <Link to={editTestimonyPath(t.id)}>edytuj{which}</Link>
        {t.hidden ? null : (
          <a href={testimonyPath(t.id)} target="_blank" rel="noreferrer">
            zobacz na stronie{which}
          </a>
        )}
        <fetcher.Form onSubmit={onSubmit} method="post" action={PASTOR_TESTIMONIES_PATH} preventScrollReset>
          <CsrfInput />
          <input type="hidden" name="id" value={t.id} />
          <button type="submit" name="intent" value={t.hidden ? "show" : "hide"} className="secondary">
            {t.hidden ? "pokaż" : "ukryj"}
            {which}
          </button>
          <MoveButtons what={`„${t.title}”`} index={index} count={count} />
        </fetcher.Form>
        <ConfirmButton
          action={PASTOR_TESTIMONIES_PATH}
          question={deleteQuestion(t.title)}
          fields={{ id: String(t.id) }}
          fetcherKey={`testimony-remove-${t.id}`}
        >
          usuń{which}
        </ConfirmButton>
      </div>
      <FormError message={reply?.error} />
    </>
  );
}
