import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { sampleFacts } from "~/content/church";
import { groupAccount } from "~/features/giving/bank-account";
import {
  type TransferDetails,
  churchPaymentCode,
  churchPayload,
  paymentCodeSrc,
  paymentCodeSvg,
  transferPayload,
} from "~/features/giving/payment-qr.server";
import { saveFacts } from "~/features/church/facts.server";
import { loader as codeLoader } from "~/routes/kod-przelewu[.]svg";
import { loader as contactLoader } from "~/routes/kontakt";
import { loader as homeLoader } from "~/routes/_index";
import { request, settle } from "../helpers";
import { decodeQr, errorCorrectionLevel } from "../qr";

// A real-looking NIP and account number with valid check digits.
const valid: TransferDetails = {
  nip: "526-000-12-46",
  account: "61 1090 1014 0000 0712 1981 2874",
  recipient: "Zbór w Wieliczce",
  title: "darowizna",
};

describe("transfer payload", () => {
  it("follows the banks' 2D code layout with the amount left to the giver", () => {
    expect(transferPayload(valid)).toBe(
      "5260001246|PL|61109010140000071219812874|000000|Zbór w Wieliczce|darowizna|||",
    );
  });

  it("takes the congregation's facts: digits only, shortened recipient and title", () => {
    expect(churchPayload(sampleFacts)).toBe(
      "0000000000|PL|04000000000000000000000000|000000|KZ Zbór w Wieliczce|darowizna na cele kultu relig.|||",
    );
    expect([...sampleFacts.qrRecipient].length).toBeLessThanOrEqual(20);
    expect([...sampleFacts.qrTitle].length).toBeLessThanOrEqual(32);
  });

  it("accepts an account written as an IBAN or without spaces", () => {
    const expected = transferPayload(valid);
    expect(transferPayload({ ...valid, account: "PL61109010140000071219812874" })).toBe(expected);
    expect(transferPayload({ ...valid, nip: "5260001246" })).toBe(expected);
  });

  it("counts letters, not bytes: 20 Polish letters fit, 21 do not", () => {
    expect(transferPayload({ ...valid, recipient: "ż".repeat(20), title: "ą".repeat(32) })).toContain(
      `|${"ż".repeat(20)}|${"ą".repeat(32)}|||`,
    );
    expect(() => transferPayload({ ...valid, recipient: "ż".repeat(21) })).toThrow(
      "bank.qrRecipient must be at most 20 characters",
    );
    expect(() => transferPayload({ ...valid, title: sampleFacts.transferTitle })).toThrow(
      "bank.qrTitle must be at most 32 characters",
    );
  });

  it.each([
    [{ account: "61 1090 1014 0000 0712 1981 287" }, "bank.account must be 26 digits"],
    [{ account: "61 1090 1014 0000 0712 1981 2875" }, "bank.account has wrong check digits"],
    [{ account: "61 1090 1014 0000 07l2 1981 2874" }, "bank.account must be 26 digits"],
    [{ nip: "526-000-12-4" }, "nip must be 10 digits"],
    [{ nip: "526-000-12-47" }, "nip has a wrong check digit"],
    [{ recipient: "  " }, "bank.qrRecipient must not be empty"],
    [{ title: "ofiara|zbiórka" }, "bank.qrTitle must not contain |"],
    [{ title: "ofiara\nzbiórka" }, "bank.qrTitle must not contain |"],
  ])("refuses %o with a message naming the field", (change, message) => {
    expect(() => transferPayload({ ...valid, ...change })).toThrow(message);
  });

  it("names every bad field at once", () => {
    expect(() => transferPayload({ ...valid, nip: "1", recipient: "x".repeat(21) })).toThrow(
      /nip must be 10 digits.*; bank\.qrRecipient must be at most 20/,
    );
  });
});

describe("QR code image", () => {
  // The congregation's own details: a site with a database of its own shows no code for sample ones.
  const ours = { ...sampleFacts, account: valid.account, nip: valid.nip };
  it("is not served while the account is a sample", async () => {
    const res = await settle(() => codeLoader({ request: request(paymentCodeSrc(ours)!), params: {}, context: {} }));
    expect(res.status).toBe(404);
  });

  it("follows the account the pastor saved", async () => {
    const saved = await saveFacts({ account: valid.account, nip: valid.nip }, { baseVersion: 0, actor: null });
    expect(saved).toEqual({ ok: true, changed: ["nip", "account"] });
  });

  it("decodes to the exact payload, at its own size and at the size pages show it", async () => {
    const payload = transferPayload(valid);
    const svg = await paymentCodeSvg(payload);
    expect(svg).toMatch(/^<svg [^>]*width="250" height="250"/);
    expect(await decodeQr(svg)).toBe(payload);
    expect(await decodeQr(svg, 250)).toBe(payload);
    // A phone's camera sees it larger.
    expect(await decodeQr(svg, 600)).toBe(payload);
  });

  it("uses error correction level L", async () => {
    const svg = await paymentCodeSvg(churchPayload(sampleFacts)!);
    expect(await errorCorrectionLevel(svg)).toBe("L");
    // The reader tells the levels apart.
    const m = await QRCode.toString(churchPayload(sampleFacts)!, { type: "svg", errorCorrectionLevel: "M", margin: 4 });
    expect(await errorCorrectionLevel(m)).toBe("M");
  });

  it("is served as a cacheable SVG with an ETag and the site's security headers", async () => {
    const args = (path: string, init?: RequestInit) => ({ request: request(path, init), params: {}, context: {} });
    const res = await settle(() => codeLoader(args(paymentCodeSrc(ours)!)));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/svg+xml; charset=utf-8");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("Content-Security-Policy")).toContain("script-src 'self'");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const svg = await res.text();
    expect(await decodeQr(svg, 250)).toBe(churchPayload(ours));

    const etag = res.headers.get("ETag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await settle(() => codeLoader(args(paymentCodeSrc(ours)!, { headers: { "If-None-Match": etag } })));
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");

    // An address without the current version is not kept for long.
    const stale = await settle(() => codeLoader(args("/kod-przelewu.svg?v=old")));
    expect(stale.headers.get("Cache-Control")).toBe("private, max-age=0, must-revalidate");
    expect(await stale.text()).toBe(svg);
  });

  it("is linked by both donation pages under its current version", async () => {
    const args = (path: string) => ({ request: request(path), params: {}, context: {} });
    const home = await (await settle(() => homeLoader(args("/")))).json();
    const contact = await (await settle(() => contactLoader())).json();
    expect(home.paymentCodeSrc).toMatch(/^\/kod-przelewu\.svg\?v=[\w-]{10}$/);
    expect(contact.paymentCodeSrc).toBe(home.paymentCodeSrc);
    expect((await churchPaymentCode(churchPayload(ours)!)).svg).toContain("<svg");
  });
});

it("groups the account number like banks print it", () => {
  expect(groupAccount("PL61109010140000071219812874")).toBe("61 1090 1014 0000 0712 1981 2874");
  expect(groupAccount("61-1090-1014-0000-0712-1981-2874")).toBe("61 1090 1014 0000 0712 1981 2874");
  expect(groupAccount(sampleFacts.account)).toBe("04 0000 0000 0000 0000 0000 0000");
});
