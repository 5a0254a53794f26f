import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { requireUserOrKeep } from "~/features/kept-forms/kept-forms.server";
import { KEPT_PARAM } from "~/features/kept-forms/messages";
import { factsForm, readFactsFresh } from "~/features/church/facts.server";
import { type FactsRefusal, keptFactsForm, submitFactsForm } from "~/features/church/facts-form.server";
import { FACT_LABELS, type FactField, QR_RECIPIENT_MAX, QR_TITLE_MAX } from "~/features/church/facts";
import { Field, FlashMessage, FormError, TextAreaField, keepPageWhenNotSaved } from "~/components/forms";
import { SAVING, SavingNote, useScriptForm } from "~/components/optimistic";
import { BackLink } from "~/components/layout";
import { CsrfInput, PastorBar } from "~/components/pastor";
import { ConflictNote } from "~/components/conflict-note";
import { readFlash, redirectWithFlash } from "~/http/flash.server";
import { seo } from "~/features/seo/seo";
import { PANEL_PATH, PASTOR_FACTS_PATH } from "~/lib/paths";
import { LONG_FORM_MAX_BYTES, readSmallForm } from "~/http/small-form.server";

// A post that met the outage leaves the page as it is, its message shown (see keepPageWhenNotSaved).
export const shouldRevalidate = keepPageWhenNotSaved;

export const meta: MetaFunction = (args) => seo(args, { page: "Dane zboru" });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [{ flash, headers }, stored, kept] = await Promise.all([
    readFlash(request),
    readFactsFresh(),
    keptFactsForm(new URL(request.url).searchParams.get(KEPT_PARAM), user),
  ]);
  const form = factsForm(stored.facts);
  return data(
    {
      email: user.email,
      csrf: user.csrf,
      flash,
      // A kept form still counts from the version it began from.
      state: kept
        ? { values: kept.values, version: kept.version }
        : { values: { ...form, creed: stored.facts.creed }, version: stored.version },
      kept: kept ? { key: kept.key, message: kept.message } : null,
      sample: stored.sample,
    },
    { headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  // A post after the session ended is kept, and brought back after sign-in.
  const user = await requireUserOrKeep(request, { form: "church-facts", path: PASTOR_FACTS_PATH });
  const form = await readSmallForm(request, LONG_FORM_MAX_BYTES);
  const outcome = await submitFactsForm(form, user);
  if (outcome.ok) return redirectWithFlash(PASTOR_FACTS_PATH, outcome.message);
  const error =
    outcome.status === 409
      ? "Ktoś zapisał dane zboru w innej karcie lub na innym urządzeniu, zanim zapisano Twoje zmiany. Nic nie zostało nadpisane."
      : "Popraw zaznaczone pola – nic nie zostało zapisane.";
  return data({ error, refused: outcome.refused }, { status: outcome.status });
}

type Values = ReturnType<typeof useLoaderData<typeof loader>>["state"]["values"];

/** The action's answer when nothing was saved (a save redirects). */
interface Reply {
  error: string;
  refused?: FactsRefusal;
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <fieldset className="facts-section">
      <legend>{title}</legend>
      {children}
    </fieldset>
  );
}

export default function ChurchFactsPage() {
  const { email, flash, state, kept, sample } = useLoaderData<typeof loader>();
  // With JavaScript the form is sent by the script: no page load, the fields as typed, a refusal beside them.
  const { fetcher, reply: scriptReply, onSubmit } = useScriptForm<Reply>("church-facts");
  const documentReply = useActionData<typeof action>() as Reply | undefined;
  const saving = fetcher.state !== "idle";
  const reply = scriptReply ?? documentReply;
  const refused = reply?.refused ?? null;
  const values: Values = refused?.values ?? state.values;
  const version = refused?.version ?? state.version;
  const errors: Partial<Record<FactField, string>> = refused?.errors ?? {};
  // A new key each time the shown values change, so the inputs take them (they are uncontrolled).
  // (An answer without values, such as 503 while the database is away, keeps the form as it is.)
  const formKey = `${version}-${refused ? JSON.stringify(values) : "stored"}`;

  const text = (field: FactField, extra: Record<string, unknown> = {}) => (
    <Field
      label={
        <>
          {FACT_LABELS[field]}
          {sample.includes(field) ? <span className="sample-mark"> (przykładowe)</span> : null}
        </>
      }
      id={`facts-${field}`}
      name={field}
      defaultValue={values[field] as string}
      error={errors[field]}
      {...extra}
    />
  );
  const area = (field: FactField, note: string, rows = 5) => (
    <TextAreaField
      label={
        <>
          {FACT_LABELS[field]} <span className="field-note">({note})</span>
          {sample.includes(field) ? <span className="sample-mark"> (przykładowe)</span> : null}
        </>
      }
      id={`facts-${field}`}
      name={field}
      rows={rows}
      defaultValue={values[field] as string}
      error={errors[field]}
    />
  );

  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <h1>Dane zboru</h1>
      <FlashMessage message={flash} />
      <p className="pastor-actions">
        <BackLink to={PANEL_PATH} />
      </p>
      {kept ? <p className="notice">{kept.message}</p> : null}
      <FormError message={reply?.error} />
      {refused?.conflict ? (
        <ConflictNote
          changed={refused.conflict.changed}
          sameNote="Obecna wersja nie różni się od Twojej w polach, które zmieniasz."
          yoursNote="Twoje zmiany są w formularzu poniżej: „zapisz” zapisze je na obecną wersję."
          currentHref={PASTOR_FACTS_PATH}
          current={refused.conflict.current.map((c) => ({ ...c, long: true }))}
        />
      ) : null}
      <SavingNote busy={saving} />
      {/* Without JavaScript a plain form post; while the database is away the
          answer is then the server's 'Nie zapisano zmian' page holding every
          field typed (app/http/pastor-door.server.ts). With it, the script's
          post gets `{ error }` and the form stays as typed (no revalidation:
          keepPageWhenNotSaved). */}
      <fetcher.Form
        onSubmit={onSubmit}
        method="post"
        action={PASTOR_FACTS_PATH}
        className="form facts-form"
        key={formKey}
      >
        <CsrfInput />
        <input type="hidden" name="version" value={version} />
        {kept ? <input type="hidden" name={KEPT_PARAM} value={kept.key} /> : null}
        <input type="hidden" name="creedSent" value="1" />
        {/* First in the form, so Enter in a field saves rather than moving a creed statement. */}
        <button type="submit" className="button">
          {saving ? SAVING : "zapisz"}
        </button>
        <Section title="Zbór i adres">
          {text("name")}
          {text("headerLine1")}
          {text("headerLine2")}
          {text("footerName")}
          {text("street")}
          {text("postalCode", { inputMode: "numeric", placeholder: "NN-NNN" })}
          {text("city")}
          {text("mapEmbedUrl", { type: "url", placeholder: "puste: mapa według adresu" })}
        </Section>
        <Section title="Kontakt">
          {text("email", { type: "email" })}
          {area("phones", "jeden numer w wierszu", 3)}
          {text("nip", { inputMode: "numeric" })}
          {text("regon", { inputMode: "numeric" })}
          {text("videoChannelUrl", { type: "url", placeholder: "https://" })}
          {text("googleCalendarUrl", { type: "url", placeholder: "puste: tylko kalendarz strony" })}
        </Section>
        <Section title="Dane do przelewu">
          {text("bankName")}
          {text("holder")}
          {text("account", { inputMode: "numeric", autoComplete: "off" })}
          {text("transferTitle")}
          {text("qrRecipient", { maxLength: QR_RECIPIENT_MAX * 2 })}
          <p className="field-note">Kod QR banków mieści {QR_RECIPIENT_MAX} znaków odbiorcy.</p>
          {text("qrTitle", { maxLength: QR_TITLE_MAX * 2 })}
          <p className="field-note">…i {QR_TITLE_MAX} znaki tytułu.</p>
        </Section>
        <Section title="Strona główna i „O nas”">
          {area("verseText", "cytat", 3)}
          {text("verseReference")}
          {area("welcome", "akapity oddzielone pustym wierszem")}
          {area("history", "akapity oddzielone pustym wierszem")}
        </Section>
        <Section title={FACT_LABELS.creed}>
          <ol className="creed-edit">
            {values.creed.map((statement, i) => (
              <li key={`${i}-${statement}`}>
                <label htmlFor={`facts-creed-${i}`} className="visually-hidden">
                  Punkt {i + 1}
                </label>
                <textarea id={`facts-creed-${i}`} name="creed" rows={2} defaultValue={statement} />
                <span className="move-buttons">
                  {i > 0 ? (
                    <button type="submit" name="move" value={`up:${i}`} aria-label={`przesuń punkt ${i + 1} wyżej`}>
                      ↑
                    </button>
                  ) : null}
                  {i < values.creed.length - 1 ? (
                    <button type="submit" name="move" value={`down:${i}`} aria-label={`przesuń punkt ${i + 1} niżej`}>
                      ↓
                    </button>
                  ) : null}
                </span>
              </li>
            ))}
          </ol>
          <p className="field-note">Aby usunąć punkt, wyczyść jego pole i zapisz.</p>
          <TextAreaField label="Nowy punkt" id="facts-creed-new" name="creed" rows={2} error={errors.creed} />
        </Section>
        <button type="submit" className="button">
          {saving ? SAVING : "zapisz"}
        </button>
      </fetcher.Form>
    </section>
  );
}
