import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { binForm } from "~/http/form-schemas.server";
import { church } from "~/content/church";
import { requireUser } from "~/features/auth/auth.server";
import {
  listBin,
  purgeItem,
  purgeOnVisit,
  restoreArticle,
  restoreEvent,
  restoreGallery,
  restoreTestimony,
} from "~/features/bin/bin.server";
import {
  BIN_KEEP_DAYS,
  BIN_KIND_LABELS,
  BIN_KIND_OBJECTS,
  purgeIn,
  purgeQuestion,
  titleTakenMessage,
} from "~/features/bin/bin";
import { ConfirmButton, ConfirmPage } from "~/components/confirm";
import { DOCUMENT_POST, Field, FlashMessage, FormError } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { CsrfInput, PastorBar } from "~/components/pastor";
import { readFlash, redirectWithFlash } from "~/http/flash.server";
import { seo } from "~/features/seo/seo";
import { BIN_PATH, PANEL_PATH } from "~/lib/paths";
import { displayDateTime } from "~/lib/text";
import { readSmallForm } from "~/http/small-form.server";

export const meta: MetaFunction = (args) => seo(args, { page: "Kosz" });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  await purgeOnVisit();
  const { flash, headers } = await readFlash(request);
  const items = await listBin();
  return data({ email: user.email, csrf: user.csrf, flash, items }, { headers });
}

/**
 * 'przywróć' and 'usuń na zawsze'. Without JavaScript 'usuń na zawsze' first
 * answers with the question (as the other deletes do); an album whose title
 * is taken answers with a field for another one.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = binForm.safeParse(Object.fromEntries(await readSmallForm(request)));
  if (!parsed.success) return data({ error: "Nieznane polecenie formularza." }, { status: 400 });
  const { intent, kind, id, title, confirmed } = parsed.data;
  const gone = () => redirectWithFlash(BIN_PATH, "Tego nie ma już w koszu.");

  if (intent === "restore") {
    if (kind === "article") {
      const result = await restoreArticle({ id, actor: user });
      return result.ok ? redirectWithFlash(BIN_PATH, `Przywrócono artykuł „${result.title}”.`) : gone();
    }
    if (kind === "event") {
      const result = await restoreEvent({ id, actor: user });
      return result.ok ? redirectWithFlash(BIN_PATH, `Przywrócono wydarzenie „${result.title}”.`) : gone();
    }
    if (kind === "testimony") {
      const result = await restoreTestimony({ id, actor: user });
      return result.ok ? redirectWithFlash(BIN_PATH, `Przywrócono świadectwo „${result.title}”.`) : gone();
    }
    const result = await restoreGallery({ id, newTitle: title ?? null, actor: user });
    if (result.ok) return redirectWithFlash(BIN_PATH, `Przywrócono galerię „${result.title}”.`);
    if (result.reason === "gone") return gone();
    return data(
      { conflict: { id, title: result.title, error: result.error ?? titleTakenMessage(result.title) } },
      { status: 409 },
    );
  }

  const item = (await listBin()).find((i) => i.kind === kind && i.id === id);
  if (!item) return gone();
  if (confirmed !== "1") return { confirm: { kind, id, question: purgeQuestion(kind, item.title) } };
  if (!(await purgeItem({ kind, id, actor: user }))) return gone();
  return redirectWithFlash(BIN_PATH, `Usunięto na zawsze ${BIN_KIND_OBJECTS[kind]} „${item.title}”.`);
}

export default function Bin() {
  const { email, flash, items } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <h1>Kosz</h1>
      <FlashMessage message={flash} />
      <p className="pastor-actions">
        <BackLink to={PANEL_PATH} />
      </p>
      <p>
        Usunięte artykuły, galerie i świadectwa czekają tu {BIN_KEEP_DAYS} dni, razem ze zdjęciami. Potem są usuwane na
        zawsze.
      </p>
      {result && "error" in result ? <FormError message={result.error} /> : null}
      {result && "confirm" in result ? (
        <ConfirmPage
          action={BIN_PATH}
          question={result.confirm.question}
          cancelTo={BIN_PATH}
          intent="purge"
          fields={{ kind: result.confirm.kind, id: result.confirm.id }}
          confirmLabel="tak, usuń na zawsze"
          reloadDocument={DOCUMENT_POST}
        />
      ) : null}
      {result && "conflict" in result ? (
        <Form method="post" action={BIN_PATH} className="form bin-rename" reloadDocument={DOCUMENT_POST}>
          <CsrfInput />
          <input type="hidden" name="intent" value="restore" />
          <input type="hidden" name="kind" value="gallery" />
          <input type="hidden" name="id" value={result.conflict.id} />
          <Field
            id="bin-new-title"
            name="title"
            label="Nowy tytuł galerii"
            required
            defaultValue={result.conflict.title}
            error={result.conflict.error}
          />
          <p className="confirm-actions">
            <button type="submit">przywróć pod nowym tytułem</button>
            <a className="button secondary" href={BIN_PATH}>
              anuluj
            </a>
          </p>
        </Form>
      ) : null}
      {items.length === 0 ? (
        <p className="empty">Kosz jest pusty.</p>
      ) : (
        <ul className="bin-list">
          {items.map((item) => {
            const fields = { kind: item.kind, id: item.id };
            const which = <span className="visually-hidden">: {item.title}</span>;
            return (
              <li key={`${item.kind}-${item.id}`}>
                <h2>{item.title}</h2>
                <p className="date">
                  {BIN_KIND_LABELS[item.kind]} · usunięto {displayDateTime(item.deletedAt, church.timeZone)}
                  {item.deletedBy ? ` (${item.deletedBy})` : ""} · {purgeIn(item.daysLeft)}
                </p>
                <div className="card-actions">
                  <Form method="post" action={BIN_PATH} reloadDocument={DOCUMENT_POST}>
                    <CsrfInput />
                    <input type="hidden" name="intent" value="restore" />
                    <input type="hidden" name="kind" value={item.kind} />
                    <input type="hidden" name="id" value={item.id} />
                    <button type="submit" className="secondary">
                      przywróć{which}
                    </button>
                  </Form>
                  <ConfirmButton
                    action={BIN_PATH}
                    intent="purge"
                    fields={fields}
                    question={purgeQuestion(item.kind, item.title)}
                    reloadDocument={DOCUMENT_POST}
                  >
                    usuń na zawsze{which}
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
