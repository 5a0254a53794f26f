import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { sessionForm } from "~/http/form-schemas.server";
import { church } from "~/content/church";
import { requireUser } from "~/features/auth/auth.server";
import {
  forgetDevice,
  listDevices,
  listRememberedDevices,
  signOutDevice,
  signOutOtherDevices,
} from "~/features/auth/devices.server";
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
  const remembered = await listRememberedDevices(user.id, user.deviceId);
  return data({ email: user.email, csrf: user.csrf, flash, devices, remembered }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = sessionForm.safeParse(Object.fromEntries(await readSmallForm(request)));
  if (!parsed.success) return redirectWithFlash(DEVICES_PATH, "Nieznane polecenie formularza.");
  if (parsed.data.intent === "others") {
    const count = await signOutOtherDevices(user.id, user);
    return redirectWithFlash(DEVICES_PATH, count ? "Wylogowano wszystkie inne urządzenia." : "Nie ma innych urządzeń.");
  }
  if (parsed.data.intent === "forget") {
    const done = await forgetDevice(user.id, parsed.data.id);
    return redirectWithFlash(DEVICES_PATH, done ? "Usunięto urządzenie." : "To urządzenie jest już usunięte.");
  }
  // This device signs out through 'wyloguj się', which also clears its cookie.
  if (parsed.data.id === user.sessionId)
    return redirectWithFlash(DEVICES_PATH, "To urządzenie wylogujesz przyciskiem „wyloguj się”.");
  const done = await signOutDevice(user.id, parsed.data.id);
  return redirectWithFlash(DEVICES_PATH, done ? "Wylogowano urządzenie." : "To urządzenie jest już wylogowane.");
}

export default function Devices() {
  const { email, flash, devices, remembered } = useLoaderData<typeof loader>();
  const others = devices.filter((d) => !d.current).length + remembered.filter((d) => !d.current).length;
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
      <h2>Zapamiętane urządzenia</h2>
      <p>
        Przeglądarki, w których logowano się na to konto. Taka przeglądarka nie jest spowalniana przy logowaniu, a
        formularz wysłany z niej po wygaśnięciu sesji czeka tam na ponowne zalogowanie. Usunięta przeglądarka traci
        jedno i drugie.
      </p>
      <ul className="device-list">
        {remembered.map((d) => (
          <li key={d.id}>
            <h3>
              {d.name}
              {d.current ? <span className="device-current"> (ta przeglądarka)</span> : null}
            </h3>
            <dl>
              <dt>pierwsze logowanie</dt>
              <dd>{displayDateTime(d.firstSignInAt, church.timeZone)}</dd>
              <dt>ostatnio używane</dt>
              <dd>{displayDateTime(d.lastUsedAt, church.timeZone)}</dd>
            </dl>
            <Form method="post" reloadDocument={DOCUMENT_POST}>
              <CsrfInput />
              <input type="hidden" name="id" value={d.id} />
              <button type="submit" name="intent" value="forget" className="secondary">
                usuń<span className="visually-hidden">: {d.name}</span>
              </button>
            </Form>
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
