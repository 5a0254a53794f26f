import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { twoFactorForm } from "~/http/form-schemas.server";
import { church } from "~/content/church";
import { LoginRefusedError, confirmUnderLimits, requireUser } from "~/features/auth/auth.server";
import {
  cancelTwoFactorSetup,
  confirmTwoFactorSetup,
  disableTwoFactor,
  regenerateRecoveryCodes,
  startTwoFactorSetup,
  twoFactorState,
} from "~/features/auth/two-factor.server";
import { DOCUMENT_POST, Field, FlashMessage } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { CsrfInput, PastorBar } from "~/components/pastor";
import { signInHeaders } from "~/http/cache.server";
import { readFlash, redirectWithFlash } from "~/http/flash.server";
import { PANEL_PATH, TWO_FACTOR_PATH } from "~/lib/paths";
import { displayDateTime } from "~/lib/text";
import { RECOVERY_CODE_COUNT, groupSecret } from "~/lib/two-factor";
import { readSmallForm } from "~/http/small-form.server";

export const headers = signInHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { flash, headers } = await readFlash(request);
  const state = await twoFactorState(user.id);
  return data(
    {
      email: user.email,
      csrf: user.csrf,
      flash,
      enabledAt: state.enabledAt?.toISOString() ?? null,
      recoveryCodesLeft: state.recoveryCodesLeft,
      setup: state.setup,
    },
    { headers },
  );
}

type Result =
  | { intent: "confirm" | "regenerate"; recoveryCodes: string[]; error?: undefined }
  | { intent: "confirm" | "regenerate" | "disable"; error: string; recoveryCodes?: undefined };

const WRONG_CODE = "Nieprawidłowy kod. Spróbuj ponownie.";

function refused(error: unknown, which: "regenerate" | "disable", wrong: string) {
  if (!(error instanceof LoginRefusedError)) throw error;
  const limited = error.reason === "locked" || error.reason === "slowed";
  return data<Result>(
    { intent: which, error: limited ? error.message : wrong },
    { status: limited ? 429 : 400, headers: limited ? { "Retry-After": String(error.retryAfterSeconds) } : undefined },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = twoFactorForm.safeParse(Object.fromEntries(await readSmallForm(request)));
  if (!parsed.success) return redirectWithFlash(TWO_FACTOR_PATH, "Nieznane polecenie formularza.");
  const form = parsed.data;
  switch (form.intent) {
    case "start":
      if (!(await startTwoFactorSetup(user.id))) {
        return redirectWithFlash(TWO_FACTOR_PATH, "Weryfikacja dwuetapowa jest już włączona.");
      }
      return redirect(TWO_FACTOR_PATH);
    case "cancel":
      await cancelTwoFactorSetup(user.id);
      return redirectWithFlash(TWO_FACTOR_PATH, "Nie włączono weryfikacji dwuetapowej.");
    case "confirm": {
      const codes = await confirmTwoFactorSetup({ userId: user.id, code: form.code, keepSessionId: user.sessionId });
      if (!codes) return data<Result>({ intent: "confirm", error: WRONG_CODE }, { status: 400 });
      // Shown in this answer only: the codes are not stored, so no later page can show them.
      return data<Result>({ intent: "confirm", recoveryCodes: codes });
    }
    case "regenerate":
      try {
        const codes = await confirmUnderLimits(request.headers.get("Cookie"), user.email, () =>
          regenerateRecoveryCodes({ userId: user.id, code: form.code }),
        );
        return data<Result>({ intent: "regenerate", recoveryCodes: codes });
      } catch (error) {
        return refused(error, "regenerate", WRONG_CODE);
      }
    case "disable":
      try {
        await confirmUnderLimits(request.headers.get("Cookie"), user.email, () =>
          disableTwoFactor({ userId: user.id, email: user.email, codeOrPassword: form.codeOrPassword }),
        );
      } catch (error) {
        return refused(error, "disable", "Nieprawidłowy kod lub hasło.");
      }
      return redirectWithFlash(TWO_FACTOR_PATH, "Wyłączono weryfikację dwuetapową.");
  }
}

export default function TwoFactor() {
  const { email, flash, enabledAt, recoveryCodesLeft, setup } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errorFor = (which: string) => (result?.intent === which ? result.error : undefined);
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <h1>Weryfikacja dwuetapowa</h1>
      <FlashMessage message={flash} />
      <p className="pastor-actions">
        <BackLink to={PANEL_PATH} />
      </p>

      {result?.recoveryCodes ? (
        <section className="recovery-codes" aria-labelledby="recovery-codes-title">
          {result.intent === "confirm" ? (
            <p role="status" className="flash">
              Włączono weryfikację dwuetapową.
            </p>
          ) : null}
          <h2 id="recovery-codes-title">Kody odzyskiwania</h2>
          <p>
            <strong>Zapisz te kody w bezpiecznym miejscu. Każdy działa tylko raz.</strong> Gdy nie masz przy sobie
            telefonu, wpisz jeden z nich zamiast kodu z aplikacji. Nie zobaczysz ich tu ponownie.
          </p>
          <ol className="recovery-code-list">
            {result.recoveryCodes.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ol>
        </section>
      ) : null}

      {enabledAt ? (
        <>
          <p>
            Weryfikacja dwuetapowa jest <strong>włączona</strong> (od {displayDateTime(enabledAt, church.timeZone)}).
            Logowanie wymaga hasła i kodu z aplikacji uwierzytelniającej.
          </p>
          <p>
            Niewykorzystane kody odzyskiwania: {recoveryCodesLeft} z {RECOVERY_CODE_COUNT}.
          </p>

          <h2>Nowe kody odzyskiwania</h2>
          <Form method="post" className="form" reloadDocument={DOCUMENT_POST}>
            <CsrfInput />
            <input type="hidden" name="intent" value="regenerate" />
            <AppCodeField id="regenerate-code" error={errorFor("regenerate")} />
            <p className="field-note">Dotychczasowe kody odzyskiwania przestaną działać.</p>
            <button type="submit">wygeneruj nowe kody</button>
          </Form>

          <h2>Wyłączanie</h2>
          <Form method="post" className="form" reloadDocument={DOCUMENT_POST}>
            <CsrfInput />
            <input type="hidden" name="intent" value="disable" />
            <Field
              id="disable-code"
              label="Kod z aplikacji lub hasło"
              name="codeOrPassword"
              type="password"
              autoComplete="current-password"
              required
              maxLength={256}
              error={errorFor("disable")}
            />
            <button type="submit" className="secondary">
              wyłącz weryfikację dwuetapową
            </button>
          </Form>
        </>
      ) : setup ? (
        <>
          <p>
            Weryfikacja dwuetapowa jest <strong>wyłączona</strong>. Aby ją włączyć:
          </p>
          <ol className="two-factor-steps">
            <li>
              <p>
                Zeskanuj ten kod QR aplikacją uwierzytelniającą w telefonie (np. Google Authenticator, Microsoft
                Authenticator, Aegis, 2FAS).
              </p>
              <div
                className="totp-qr"
                role="img"
                aria-label="Kod QR z kluczem do aplikacji uwierzytelniającej"
                // A server-rendered SVG of the otpauth:// address (the qrcode package).
                dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
              />
              <p>
                {/* On the phone itself a code on its own screen cannot be scanned: the app opens this address. */}
                Ta strona jest otwarta w telefonie? <a href={setup.uri}>Dodaj konto w aplikacji uwierzytelniającej</a>.
              </p>
              <p>
                Nie możesz zeskanować? Wpisz w aplikacji ten klucz:{" "}
                <code id="totp-secret" className="totp-secret">
                  {groupSecret(setup.secret)}
                </code>
              </p>
            </li>
            <li>
              <Form method="post" className="form" reloadDocument={DOCUMENT_POST}>
                <CsrfInput />
                <input type="hidden" name="intent" value="confirm" />
                <AppCodeField id="confirm-code" error={errorFor("confirm")} />
                <button type="submit">potwierdź i włącz</button>
              </Form>
            </li>
          </ol>
          <Form method="post" reloadDocument={DOCUMENT_POST}>
            <CsrfInput />
            <button type="submit" name="intent" value="cancel" className="secondary">
              anuluj
            </button>
          </Form>
        </>
      ) : (
        <>
          <p>
            Weryfikacja dwuetapowa jest <strong>wyłączona</strong>. Po jej włączeniu logowanie wymaga, oprócz hasła,
            kodu z aplikacji uwierzytelniającej w telefonie: samo hasło nie wystarczy nikomu, kto je pozna.
          </p>
          <Form method="post" reloadDocument={DOCUMENT_POST}>
            <CsrfInput />
            <button type="submit" name="intent" value="start">
              włącz weryfikację dwuetapową
            </button>
          </Form>
        </>
      )}
    </section>
  );
}

/** A code from the authenticator app: digits, offered by the phone's one-time-code autofill. */
function AppCodeField({ id, error }: { id: string; error: string | undefined }) {
  return (
    <Field
      id={id}
      label="Kod z aplikacji"
      name="code"
      autoComplete="one-time-code"
      inputMode="numeric"
      required
      maxLength={16}
      error={error}
    />
  );
}
