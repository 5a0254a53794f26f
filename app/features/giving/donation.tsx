import type { PublicBank } from "~/features/church/facts";

/** The account number as banks print it (the loader groups it); one tap selects all of it for copying. */
export function AccountNumber({ account }: { account: string }) {
  return <span className="account-number">{account}</span>;
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
  bank,
  paymentCodeSrc,
  withHolder = false,
}: {
  bank: PublicBank;
  paymentCodeSrc: string | null;
  withHolder?: boolean;
}) {
  return (
    <>
      <dl className="details">
        <dt>Bank</dt>
        <dd>{bank.bankName}</dd>
        {withHolder ? (
          <>
            <dt>Odbiorca</dt>
            <dd>{bank.holder}</dd>
          </>
        ) : null}
        <dt>Numer konta</dt>
        <dd>
          <AccountNumber account={bank.account} />
        </dd>
        <dt>Tytuł przelewu</dt>
        <dd>{bank.transferTitle}</dd>
      </dl>
      {paymentCodeSrc ? <PayByCode src={paymentCodeSrc} /> : null}
    </>
  );
}
