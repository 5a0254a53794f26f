import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { DOCUMENT_POST, FormError } from "./forms";
import { useScriptForm } from "./optimistic";
import { CsrfInput } from "./pastor";

/**
 * A delete button that asks first. With JavaScript the browser's confirm
 * dialog asks and the form is sent with `confirmed=1`. Without JavaScript
 * the form is sent without it and the action answers with a confirmation
 * page (see `ConfirmPage`), so nothing is deleted on the first click.
 * Posted as a document also with JavaScript (DOCUMENT_POST): while the
 * database is away the browser shows the server's 'Nie zapisano zmian' page.
 * Given `fetcherKey`, it is sent by the script instead (an optimistic page,
 * app/components/optimistic.tsx) and a refusal is shown beside the button.
 */
export function ConfirmButton({
  action,
  question,
  children,
  intent = "delete",
  className,
  fields = {},
  reloadDocument = DOCUMENT_POST,
  fetcherKey,
}: {
  action: string;
  question: string;
  children: ReactNode;
  intent?: string;
  className?: string;
  /** Hidden fields that name what the button is about (e.g. which bin item). */
  fields?: Record<string, string>;
  /** Posted as a document also with JavaScript (DOCUMENT_POST in components/forms.tsx, the default). */
  reloadDocument?: boolean;
  /** Sent by the script as this fetcher (its answer read with `useFetcher({ key })`), not as a document. */
  fetcherKey?: string;
}) {
  const { reply } = useScriptForm<{ error?: string }>(fetcherKey);
  const refused = fetcherKey ? reply?.error : null;
  return (
    <>
      <Form
        method="post"
        action={action}
        className={className}
        reloadDocument={fetcherKey ? undefined : reloadDocument}
        navigate={fetcherKey ? false : undefined}
        fetcherKey={fetcherKey}
        preventScrollReset={fetcherKey ? true : undefined}
        onSubmit={(event) => {
          if (!window.confirm(question)) {
            event.preventDefault();
            return;
          }
          const confirmed = event.currentTarget.elements.namedItem("confirmed") as HTMLInputElement | null;
          if (confirmed) confirmed.value = "1";
        }}
      >
        <CsrfInput />
        <HiddenFields fields={fields} />
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="confirmed" value="" />
        <button type="submit" className="danger">
          {children}
        </button>
      </Form>
      <FormError message={typeof refused === "string" ? refused : null} />
    </>
  );
}

/** The server-rendered confirmation step used without JavaScript. */
export function ConfirmPage({
  action,
  question,
  cancelTo,
  intent = "delete",
  fields = {},
  confirmLabel = "tak, usuń",
  reloadDocument = DOCUMENT_POST,
}: {
  action: string;
  question: string;
  cancelTo: string;
  intent?: string;
  fields?: Record<string, string>;
  confirmLabel?: string;
  reloadDocument?: boolean;
}) {
  return (
    <div className="confirm" role="alertdialog" aria-labelledby="confirm-question">
      <p id="confirm-question">{question}</p>
      <div className="confirm-actions">
        <Form method="post" action={action} reloadDocument={reloadDocument}>
          <CsrfInput />
          <HiddenFields fields={fields} />
          <input type="hidden" name="intent" value={intent} />
          <input type="hidden" name="confirmed" value="1" />
          <button type="submit" className="danger">
            {confirmLabel}
          </button>
        </Form>
        <a className="button secondary" href={cancelTo}>
          anuluj
        </a>
      </div>
    </div>
  );
}

function HiddenFields({ fields }: { fields: Record<string, string> }) {
  return Object.entries(fields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />);
}
