import crypto from "node:crypto";
import QRCode from "qrcode";
import { z } from "zod";
import type { ChurchFacts } from "~/features/church/facts";
import { accountDigits } from "~/features/giving/bank-account";
import { PAYMENT_CODE_PATH } from "~/lib/paths";

/**
 * "Zapłać kodem": the QR code Polish banking apps read to fill in a transfer
 * (the Polish Bank Association's 2D code standard):
 * `NIP|PL|account|amount|recipient|title|||`.
 */

/** Rendered and shown at this size in CSS pixels. */
export const PAYMENT_CODE_SIZE = 250;
/** Zeros: the giver types the amount in the bank's app. */
const AMOUNT_TO_BE_TYPED = "000000";

export interface TransferDetails {
  nip: string;
  account: string;
  recipient: string;
  title: string;
}

/** Mod-11 check digit of a Polish tax id. */
function validNip(digits: string): boolean {
  const weights = [6, 5, 7, 2, 3, 4, 5, 6, 7];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(digits[i]), 0);
  return sum % 11 === Number(digits[9]);
}

/** IBAN mod-97 check of a 26-digit Polish account number (catches any single mistyped digit). */
function validAccount(digits: string): boolean {
  const rearranged = `${digits.slice(2)}2521${digits.slice(0, 2)}`; // BBAN, "PL" as 25 21, check digits
  return BigInt(rearranged) % 97n === 1n;
}

const codeText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, "must not be empty")
    // The standard counts characters, not bytes; "ż" is one.
    .refine((v) => [...v].length <= max, `must be at most ${max} characters`)
    .refine((v) => !/[|\p{Cc}]/u.test(v), "must not contain | (the field separator) or control characters");

const schema = z.object({
  nip: z
    .string()
    .transform((v) => v.replace(/[\s-]/g, ""))
    .refine((v) => /^\d{10}$/.test(v), "must be 10 digits (e.g. 123-456-78-90)")
    .refine((v) => !/^\d{10}$/.test(v) || validNip(v), "has a wrong check digit: mistyped?"),
  account: z
    .string()
    .transform(accountDigits)
    .refine((v) => /^\d{26}$/.test(v), "must be 26 digits (e.g. 12 3456 7890 …)")
    .refine((v) => !/^\d{26}$/.test(v) || validAccount(v), "has wrong check digits: mistyped?"),
  recipient: codeText(20),
  title: codeText(32),
});

// Errors name the fact the value comes from.
const FIELD_NAMES: Record<keyof TransferDetails, string> = {
  nip: "nip",
  account: "bank.account",
  recipient: "bank.qrRecipient",
  title: "bank.qrTitle",
};

/** The text of the code; throws an error naming every invalid field instead of producing a wrong code. */
export function transferPayload(details: TransferDetails): string {
  const parsed = schema.safeParse(details);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${FIELD_NAMES[issue.path[0] as keyof TransferDetails]} ${issue.message}`,
    );
    throw new Error(`Payment QR code: invalid details: ${problems.join("; ")}`);
  }
  const { nip, account, recipient, title } = parsed.data;
  return [nip, "PL", account, AMOUNT_TO_BE_TYPED, recipient, title, "", "", ""].join("|");
}

export function churchTransferDetails(facts: ChurchFacts): TransferDetails {
  return { nip: facts.nip, account: facts.account, recipient: facts.qrRecipient, title: facts.qrTitle };
}

/** Error correction L: the payload is large and a screen shows it undamaged, so the smallest, coarsest code scans best. */
export function paymentCodeSvg(payload: string): Promise<string> {
  return QRCode.toString(payload, {
    type: "svg",
    errorCorrectionLevel: "L",
    margin: 4,
    width: PAYMENT_CODE_SIZE,
  });
}

const hash = (text: string, length: number) =>
  crypto.createHash("sha256").update(text).digest("base64url").slice(0, length);

/** The congregation's payload, or null when its details cannot make a right code (then no code is shown). */
export function churchPayload(facts: ChurchFacts): string | null {
  try {
    return transferPayload(churchTransferDetails(facts));
  } catch {
    return null;
  }
}

/** Changes whenever the code's content does, so the image may be cached for good under it. */
export function paymentCodeVersion(payload: string): string {
  return hash(payload, 10);
}

/** Address of the image for pages, versioned by content. */
export function paymentCodeAddress(payload: string): string {
  return `${PAYMENT_CODE_PATH}?v=${paymentCodeVersion(payload)}`;
}

/** Address of the image for pages; null when there is no code to show. */
export function paymentCodeSrc(facts: ChurchFacts): string | null {
  const payload = churchPayload(facts);
  return payload ? paymentCodeAddress(payload) : null;
}

let rendered: { payload: string; code: Promise<{ svg: string; etag: string }> } | undefined;

/** The code's image; the last one made is kept until the details change. */
export function churchPaymentCode(payload: string): Promise<{ svg: string; etag: string }> {
  if (rendered?.payload !== payload) {
    const code = paymentCodeSvg(payload).then((svg) => ({ svg, etag: `"${hash(svg, 27)}"` }));
    rendered = { payload, code };
  }
  return rendered.code;
}
