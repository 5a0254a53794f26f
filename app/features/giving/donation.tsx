import { church } from "~/content/church";
import { groupAccount } from "~/features/giving/bank-account";

/** The account number as banks print it; one tap selects all of it for copying. */
export function AccountNumber() {
  return <span className="account-number">{groupAccount(church.bank.account)}</span>;
}

/** The "Zapłać kodem" QR code; `src` comes from the route's loader (versioned by content). */
export function PayByCode({ src }: { src: string }) {
  return (
    <div className="pay-code">
      <h3>Zapłać kodem</h3>
      <p>Zeskanuj kod w aplikacji banku – kwotę wpiszesz sam.</p>
      <img src={src} width="250" height="250" loading="lazy" alt="Kod QR z danymi przelewu na konto zboru" />
    </div>
  );
}

/**
 * Where to send a donation: bank, (on the contact page) the account holder,
 * the account number and the transfer title, then the QR code.
 */
export function TransferDetails({
  paymentCodeSrc,
  withHolder = false,
}: {
  paymentCodeSrc: string;
  withHolder?: boolean;
}) {
  const { bank } = church;
  return (
    <>
      <dl className="details">
        <dt>Bank</dt>
        <dd>{bank.name}</dd>
        {withHolder ? (
          <>
            <dt>Odbiorca</dt>
            <dd>{bank.holder}</dd>
          </>
        ) : null}
        <dt>Numer konta</dt>
        <dd>
          <AccountNumber />
        </dd>
        <dt>Tytuł przelewu</dt>
        <dd>{bank.transferTitle}</dd>
      </dl>
      <PayByCode src={paymentCodeSrc} />
    </>
  );
}
