import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ministryForm } from "~/http/form-schemas.server";
import { requireUser } from "~/features/auth/auth.server";
import { listMinistries } from "~/features/church/about.server";
import {
  addMinistry,
  moveMinistry,
  removeMinistry,
  reorderMinistries,
  updateMinistry,
} from "~/features/church/ministries.server";
import { ConfirmButton, ConfirmPage } from "~/components/confirm";
import { DOCUMENT_POST, Field, FlashMessage, FormError, keepPageWhenNotSaved, TextAreaField } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { CsrfInput, PastorBar } from "~/components/pastor";
import { readFlash, redirectWithFlash } from "~/http/flash.server";
import { seo } from "~/features/seo/seo";
import { PANEL_PATH, PASTOR_MINISTRIES_PATH } from "~/lib/paths";
import { parseOrder } from "~/lib/order";
import { SortableList } from "~/components/sortable-list";
import { readSmallForm } from "~/http/small-form.server";

// A post that met the outage leaves the page as it is, its message shown (see keepPageWhenNotSaved).
export const shouldRevalidate = keepPageWhenNotSaved;

export const meta: MetaFunction = (args) => seo(args, { page: "Służby" });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { flash, headers } = await readFlash(request);
  return data({ email: user.email, csrf: user.csrf, flash, ministries: await listMinistries() }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = ministryForm.safeParse(Object.fromEntries(await readSmallForm(request)));
  if (!parsed.success) return data({ error: "Nieznane polecenie formularza." }, { status: 400 });
  const { intent, id, confirmed, order, ...input } = parsed.data;
  const done = (message: string) => redirectWithFlash(PASTOR_MINISTRIES_PATH, message);
  if (intent === "add") {
    const result = await addMinistry(input, { actor: user });
    if (result.ok) return done(`Dodano służbę „${result.name}”.`);
    return data({ error: result.error, field: result.field, id: null, values: input }, { status: result.status });
  }
  if (!id) return data({ error: "Nieznane polecenie formularza." }, { status: 400 });
  if (intent === "save") {
    const result = await updateMinistry(id, input, { actor: user });
    if (result.ok) return done(`Zapisano służbę „${result.name}”.`);
    return data({ error: result.error, field: result.field, id, values: input }, { status: result.status });
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
  const ministry = (await listMinistries()).find((m) => m.id === id);
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

export default function PastorMinistries() {
  const { email, flash, ministries } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as Reply | undefined;
  const refusedFor = reply?.values ? reply.id : undefined;
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <h1>Służby</h1>
      <FlashMessage message={flash} />
      <p className="pastor-actions">
        <BackLink to={PANEL_PATH} />
      </p>
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
      <SortableList
        items={ministries.map((m) => ({ ...m, label: m.name }))}
        action={PASTOR_MINISTRIES_PATH}
        className="order-list ministries-edit"
      >
        {(m, i, count) => {
          const typed = refusedFor === m.id ? (reply?.values ?? null) : null;
          const values = typed ?? { name: m.name, description: m.description, people: m.people.join("\n") };
          return (
            <>
              {/* A new key when the shown values change, so the uncontrolled inputs take them. */}
              <Form
                key={JSON.stringify(values)}
                method="post"
                action={PASTOR_MINISTRIES_PATH}
                className="form"
                reloadDocument={DOCUMENT_POST}
              >
                <CsrfInput />
                <input type="hidden" name="id" value={m.id} />
                <MinistryFields prefix={`ministry-${m.id}`} values={values} field={typed ? reply?.field : null} />
                <button type="submit" name="intent" value="save" className="button">
                  zapisz
                </button>
                {i > 0 ? (
                  <button type="submit" name="intent" value="up" aria-label={`przesuń „${m.name}” wyżej`}>
                    ↑
                  </button>
                ) : null}
                {i < count - 1 ? (
                  <button type="submit" name="intent" value="down" aria-label={`przesuń „${m.name}” niżej`}>
                    ↓
                  </button>
                ) : null}
              </Form>
              <ConfirmButton
                action={PASTOR_MINISTRIES_PATH}
                question={`Usunąć służbę „${m.name}”?`}
                fields={{ id: String(m.id) }}
                reloadDocument={DOCUMENT_POST}
              >
                usuń
              </ConfirmButton>
            </>
          );
        }}
      </SortableList>
      <h2>Dodaj służbę</h2>
      <Form
        method="post"
        action={PASTOR_MINISTRIES_PATH}
        className="form"
        key={refusedFor === null ? "refused" : "new"}
        reloadDocument={DOCUMENT_POST}
      >
        <CsrfInput />
        <MinistryFields
          prefix="ministry-new"
          values={(refusedFor === null ? reply?.values : null) ?? { name: "", description: "", people: "" }}
          field={refusedFor === null ? reply?.field : null}
        />
        <button type="submit" name="intent" value="add" className="button">
          dodaj służbę
        </button>
      </Form>
    </section>
  );
}
