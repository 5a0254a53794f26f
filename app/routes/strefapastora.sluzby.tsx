import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { MoveButtons } from "~/components/move-buttons";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useRef } from "react";
import { ministryForm } from "~/http/form-schemas.server";
import { requireUser } from "~/features/auth/auth.server";
import { dropKeptForm, requireUserOrKeep } from "~/features/kept-forms/kept-forms.server";
import { KEPT_PARAM } from "~/features/kept-forms/messages";
import {
  addMinistry,
  keptMinistryForm,
  listMinistriesForPastor,
  moveMinistry,
  removeMinistry,
  reorderMinistries,
  updateMinistry,
} from "~/features/church/ministries.server";
import { ConfirmButton, ConfirmPage } from "~/components/confirm";
import { ConflictNote } from "~/components/conflict-note";
import { DOCUMENT_POST, Field, FlashMessage, FormError, keepPageWhenNotSaved, TextAreaField } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { CsrfInput, PastorBar } from "~/components/pastor";
import { readFlash, redirectWithFlash } from "~/http/flash.server";
import { seo } from "~/features/seo/seo";
import { PANEL_PATH, PASTOR_MINISTRIES_PATH } from "~/lib/paths";
import { parseOrder } from "~/lib/order";
import { SortableList } from "~/components/sortable-list";
import { SavingNote, optimisticList, usePendingPosts, useScriptForm } from "~/components/optimistic";
import { readSmallForm } from "~/http/small-form.server";

// A post that met the outage leaves the page as it is, its message shown (see keepPageWhenNotSaved).
export const shouldRevalidate = keepPageWhenNotSaved;

export const meta: MetaFunction = (args) => seo(args, { page: "Służby" });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [{ flash, headers }, ministries, kept] = await Promise.all([
    readFlash(request),
    listMinistriesForPastor(),
    keptMinistryForm(new URL(request.url).searchParams.get(KEPT_PARAM), user),
  ]);
  // A kept edit of a ministry removed meanwhile is offered as a new one, so the text is not lost.
  const keptFor = kept && kept.id !== null && !ministries.some((m) => m.id === kept.id) ? { ...kept, id: null } : kept;
  return data({ email: user.email, csrf: user.csrf, flash, ministries, kept: keptFor }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  // A post after the session ended is kept, and brought back after sign-in.
  const user = await requireUserOrKeep(request, { form: "ministry", path: PASTOR_MINISTRIES_PATH });
  const form = await readSmallForm(request);
  const parsed = ministryForm.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data({ error: "Nieznane polecenie formularza." }, { status: 400 });
  const { intent, id, confirmed, order, version, ...input } = parsed.data;
  const done = (message: string) => redirectWithFlash(PASTOR_MINISTRIES_PATH, message);
  // A kept form, once saved, is used up.
  const saved = async (message: string) => {
    await dropKeptForm({ id: form.get(KEPT_PARAM), user });
    return done(message);
  };
  if (intent === "add") {
    const result = await addMinistry(input, { actor: user });
    if (result.ok) return saved(`Dodano służbę „${result.name}”.`);
    return data({ error: result.error, field: result.field, id: null, values: input }, { status: result.status });
  }
  if (!id) return data({ error: "Nieznane polecenie formularza." }, { status: 400 });
  if (intent === "save") {
    const result = await updateMinistry(id, input, { baseVersion: version, actor: user });
    if (result.ok) return saved(`Zapisano służbę „${result.name}”.`);
    // After a conflict the form carries the stored version: the next press saves the pastor's text over it.
    return data(
      {
        error: result.error,
        field: result.field,
        id,
        values: input,
        version: result.conflict?.current.version ?? version,
        conflict: result.conflict,
      },
      { status: result.status },
    );
  }
  if (intent === "up" || intent === "down") {
    const result = await moveMinistry(id, intent, { actor: user });
    return result.ok ? done(`Przesunięto służbę „${result.name}”.`) : done(result.error);
  }
  if (intent === "reorder") {
    const ids = parseOrder(order);
    if (!ids) return data({ error: "Nieznane polecenie formularza." }, { status: 400 });
    const result = await reorderMinistries(ids, id, { actor: user });
    return result.ok ? done(`Przesunięto służbę „${result.name}”.`) : done(result.error);
  }
  const ministry = (await listMinistriesForPastor()).find((m) => m.id === id);
  if (!ministry) return done("Tej służby już nie ma.");
  if (confirmed !== "1") return { confirm: { id, question: `Usunąć służbę „${ministry.name}”?` } };
  const result = await removeMinistry(id, { actor: user });
  return done(result.ok ? `Usunięto służbę „${result.name}”.` : result.error);
}

interface Typed {
  name: string;
  description: string;
  people: string;
}

/** Every answer of the action that is not a redirect. */
interface Reply {
  error?: string;
  /** The ministry the refused values belong to; null: the new one. */
  id?: number | null;
  field?: string;
  values?: Typed;
  /** The version the refused form carries on: the stored one after a conflict. */
  version?: number;
  /** Another tab saved the ministry first: what differs and the stored ministry. */
  conflict?: { changed: string[]; current: { name: string; description: string; people: string[] } };
  confirm?: { id: number; question: string };
}

function MinistryFields({ prefix, values, field }: { prefix: string; values: Typed; field?: string | null }) {
  return (
    <>
      <Field
        label="Nazwa służby"
        id={`${prefix}-name`}
        name="name"
        defaultValue={values.name}
        aria-invalid={field === "name" || undefined}
      />
      <TextAreaField
        label="Osoby (jedna w wierszu, w kolejności na stronie)"
        id={`${prefix}-people`}
        name="people"
        rows={Math.max(2, values.people.split("\n").length)}
        defaultValue={values.people}
        aria-invalid={field === "people" || undefined}
      />
      <TextAreaField
        label="Opis (opcjonalnie)"
        id={`${prefix}-description`}
        name="description"
        rows={2}
        defaultValue={values.description}
      />
    </>
  );
}

type Ministry = ReturnType<typeof useLoaderData<typeof loader>>["ministries"][number];
/** A form kept after the session ended, brought back filled in after sign-in. */
type Kept = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["kept"]>;

export default function PastorMinistries() {
  const { email, flash, ministries, kept } = useLoaderData<typeof loader>();
  // Without JavaScript a refusal is the action's answer to the page; with it, each form's own (see MinistryRow).
  const reply = useActionData<typeof action>() as Reply | undefined;
  const refusedFor = reply?.values ? reply.id : undefined;
  // What the posts being sent will change, shown before the server answers (app/components/optimistic.tsx).
  const posts = usePendingPosts(PASTOR_MINISTRIES_PATH);
  const rows = optimisticList(
    ministries.map((m) => ({ ...m, label: m.name })),
    posts,
    (m, post) =>
      post.get("intent") === "save" ? { ...m, label: String(post.get("name") ?? "").trim() || m.label } : m,
  );
  const added = posts
    .filter((post) => post.get("intent") === "add")
    .map((post, i) => {
      const name = String(post.get("name") ?? "").trim();
      return { id: -1 - i, name, description: "", people: [], version: 0, label: name, unsaved: true };
    });
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <h1>Służby</h1>
      <FlashMessage message={flash} />
      <SavingNote busy={posts.length > 0} />
      <p className="pastor-actions">
        <BackLink to={PANEL_PATH} />
      </p>
      {kept ? <p className="notice">{kept.message}</p> : null}
      <FormError message={reply?.error} />
      {reply?.confirm ? (
        <ConfirmPage
          action={PASTOR_MINISTRIES_PATH}
          question={reply.confirm.question}
          cancelTo={PASTOR_MINISTRIES_PATH}
          fields={{ id: String(reply.confirm.id) }}
          reloadDocument={DOCUMENT_POST}
        />
      ) : null}
      <SortableList items={[...rows, ...added]} action={PASTOR_MINISTRIES_PATH} className="order-list ministries-edit">
        {(m, i, count) =>
          m.unsaved ? (
            <p className="unsaved-row">{m.label}</p>
          ) : (
            <MinistryRow
              ministry={m}
              label={m.label}
              index={i}
              count={count}
              refused={refusedFor === m.id ? reply : undefined}
              kept={kept?.id === m.id ? kept : undefined}
            />
          )
        }
      </SortableList>
      <h2>Dodaj służbę</h2>
      <AddMinistry refused={refusedFor === null ? reply : undefined} kept={kept?.id === null ? kept : undefined} />
    </section>
  );
}

/**
 * One ministry's form (save, ↑/↓) and its remove button. With JavaScript
 * both are sent by the script and a refusal is shown beside them, the
 * fields as typed; `label` is the name the page shows, a new one at once.
 */
function MinistryRow({
  ministry: m,
  label,
  index,
  count,
  refused,
  kept,
}: {
  ministry: Ministry;
  label: string;
  index: number;
  count: number;
  /** The action's answer to this form without JavaScript. */
  refused?: Reply;
  kept?: Kept;
}) {
  const { fetcher, reply: scriptReply, onSubmit } = useScriptForm<Reply>(`ministry-${m.id}`);
  const reply = scriptReply ?? refused;
  // The stored values, or those of a refusal without JavaScript (with it, the fields keep what was typed;
  // after a conflict the page's data is the other tab's, so the form takes the refused values anew).
  const values = (scriptReply?.conflict ? scriptReply.values : undefined) ??
    refused?.values ??
    kept?.values ?? { name: m.name, description: m.description, people: m.people.join("\n") };
  // The version the edit began from; after a conflict the stored one, so that the next press saves over it.
  const version = reply?.version ?? kept?.version ?? m.version;
  const conflict = reply?.conflict;
  return (
    <>
      {conflict ? (
        <ConflictNote
          changed={conflict.changed}
          sameNote="Obecna wersja nie różni się od Twojej."
          yoursNote="Twoje zmiany są w formularzu poniżej: „zapisz” zapisze je na obecną wersję."
          currentHref={PASTOR_MINISTRIES_PATH}
          current={[
            { label: "Nazwa służby", value: conflict.current.name },
            { label: "Osoby", value: conflict.current.people.join("\n"), long: true },
            { label: "Opis", value: conflict.current.description, long: true },
          ]}
        />
      ) : null}
      {/* A new key when the shown values change, so the uncontrolled inputs take them. */}
      <fetcher.Form
        onSubmit={onSubmit}
        key={JSON.stringify(values)}
        method="post"
        action={PASTOR_MINISTRIES_PATH}
        className="form"
        preventScrollReset
      >
        <CsrfInput />
        <input type="hidden" name="id" value={m.id} />
        <input type="hidden" name="version" value={version} />
        {kept ? <input type="hidden" name={KEPT_PARAM} value={kept.key} /> : null}
        <MinistryFields prefix={`ministry-${m.id}`} values={values} field={reply?.field} />
        <button type="submit" name="intent" value="save" className="button">
          zapisz
        </button>
        <MoveButtons what={`„${label}”`} index={index} count={count} />
      </fetcher.Form>
      <FormError message={scriptReply?.error} />
      <ConfirmButton
        action={PASTOR_MINISTRIES_PATH}
        question={`Usunąć służbę „${label}”?`}
        fields={{ id: String(m.id) }}
        fetcherKey={`ministry-remove-${m.id}`}
      >
        usuń
      </ConfirmButton>
    </>
  );
}

/** The form of a new ministry: emptied once it is saved, kept as typed when refused. */
function AddMinistry({ refused, kept }: { refused?: Reply; kept?: Kept }) {
  const form = useRef<HTMLFormElement>(null);
  const { fetcher, reply: scriptReply, onSubmit } = useScriptForm<Reply>("ministry-add", () => form.current?.reset());
  const reply = scriptReply ?? refused;
  return (
    <>
      <fetcher.Form
        onSubmit={onSubmit}
        ref={form}
        method="post"
        action={PASTOR_MINISTRIES_PATH}
        className="form"
        key={refused ? "refused" : kept ? "kept" : "new"}
        preventScrollReset
      >
        <CsrfInput />
        {kept ? <input type="hidden" name={KEPT_PARAM} value={kept.key} /> : null}
        <MinistryFields
          prefix="ministry-new"
          values={refused?.values ?? kept?.values ?? { name: "", description: "", people: "" }}
          field={reply?.field}
        />
        <button type="submit" name="intent" value="add" className="button">
          dodaj służbę
        </button>
      </fetcher.Form>
      <FormError message={scriptReply?.error} />
    </>
  );
}
