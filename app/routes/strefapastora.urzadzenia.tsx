import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { sessionForm } from "~/http/form-schemas.server";
import { church } from "~/content/church";
import { requireUser } from "~/features/auth/auth.server";
import { listDevices, signOutDevice, signOutOtherDevices } from "~/features/auth/devices.server";
import { DOCUMENT_POST, FlashMessage } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { CsrfInput, PastorBar } from "~/components/pastor";
import { readFlash, redirectWithFlash } from "~/http/flash.server";
import { DEVICES_PATH, PANEL_PATH } from "~/lib/paths";
import { displayDateTime } from "~/lib/text";
import { readSmallForm } from "~/http/small-form.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { flash, headers } = await readFlash(request);
  const devices = await listDevices(user.id, user.sessionId);
  return data({ email: user.email, csrf: user.csrf, flash, devices }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = sessionForm.safeParse(Object.fromEntries(await readSmallForm(request)));
  if (!parsed.success) return redirectWithFlash(DEVICES_PATH, "Nieznane polecenie formularza.");
  if (parsed.data.intent === "others") {
    const count = await signOutOtherDevices(user.id, user.sessionId);
    return redirectWithFlash(DEVICES_PATH, count ? "Wylogowano wszystkie inne urządzenia." : "Nie ma innych urządzeń.");
  }
  // This device signs out through 'wyloguj się', which also clears its cookie.
  if (parsed.data.id === user.sessionId)
    return redirectWithFlash(DEVICES_PATH, "To urządzenie wylogujesz przyciskiem „wyloguj się”.");
  const done = await signOutDevice(user.id, parsed.data.id);
  return redirectWithFlash(DEVICES_PATH, done ? "Wylogowano urządzenie." : "To urządzenie jest już wylogowane.");
}

export default function Devices() {
  const { email, flash, devices } = useLoaderData<typeof loader>();
  const others = devices.filter((d) => !d.current).length;
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <h1>Zalogowane urządzenia</h1>
      <FlashMessage message={flash} />
      <p className="pastor-actions">
        <BackLink to={PANEL_PATH} />
      </p>
      <ul className="device-list">
        {devices.map((d) => (
          <li key={d.id}>
            <h2>
              {d.name}
              {d.current ? <span className="device-current"> (to urządzenie)</span> : null}
            </h2>
            <dl>
              <dt>zalogowano</dt>
              <dd>{displayDateTime(d.signedInAt, church.timeZone)}</dd>
              <dt>ostatnio używane</dt>
              <dd>{displayDateTime(d.lastUsedAt, church.timeZone)}</dd>
              <dt>adres</dt>
              <dd>{d.address ?? "nieznany"}</dd>
            </dl>
            {d.current ? null : (
              <Form method="post" reloadDocument={DOCUMENT_POST}>
                <CsrfInput />
                <input type="hidden" name="id" value={d.id} />
                <button type="submit" name="intent" value="one" className="secondary">
                  wyloguj to urządzenie<span className="visually-hidden">: {d.name}</span>
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <Form method="post" reloadDocument={DOCUMENT_POST}>
          <CsrfInput />
          <button type="submit" name="intent" value="others">
            wyloguj wszystkie inne
          </button>
        </Form>
      ) : null}
    </section>
  );
}
