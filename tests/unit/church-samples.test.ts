// Sample numbers never reach a real visitor: on a site with a database of its
// own and no demo content, a sample bank account (with its QR code), phones,
// NIP or REGON are left out of / and /kontakt, their structured data and the
// QR image until the pastor enters real ones; the demo shows everything. The
// rule on the real database, then the public loaders as Remix calls them.
import { beforeAll, describe, expect, it } from "vitest";
import { sampleFacts } from "~/content/church";
import {
  hidesSamples,
  publicFacts,
  publicPaymentPayload,
  readFactsFresh,
  samplesToFill,
  saveFacts,
} from "~/features/church/facts.server";
import { churchJsonLd } from "~/features/seo/structured-data";
import { config, readConfig } from "~/services/config.server";
import { loader as homeLoader } from "~/routes/_index";
import { loader as contactLoader } from "~/routes/kontakt";
import { loader as codeLoader } from "~/routes/kod-przelewu[.]svg";
import { loader as rootLoader } from "~/root";
import { loader as panelLoader } from "~/routes/strefapastora._index";
import { PASTOR, addPastor, signIn } from "../auth-helpers";
import { request, resetDatabase, settle } from "../helpers";

const ACCOUNT = "61 1090 1014 0000 0712 1981 2874";
const NIP = "526-000-12-46";
const REGON = "123456785";
const PHONE = "601 234 567";

const args = (path: string, init?: RequestInit) => ({ request: request(path, init), params: {}, context: {} });

async function save(form: Record<string, string>) {
  const { version } = await readFactsFresh();
  const saved = await saveFacts(form, { baseVersion: version, actor: null });
  expect(saved.ok).toBe(true);
}

/** Every text a visitor gets from / and /kontakt (their loaders' data, the JSON-LD they render) and the layout. */
async function visitorText(): Promise<string> {
  const home = await (await settle(() => homeLoader(args("/")))).json();
  const contact = await (await settle(() => contactLoader())).json();
  const root = await (await settle(() => rootLoader(args("/")))).json();
  const jsonLd = churchJsonLd("https://zbor.example", contact.facts, contact.meetings);
  return JSON.stringify([home, contact, root, jsonLd]);
}

/** The digits a sample number would show in any grouping. */
const digits = (text: string) => text.replaceAll(/\D/g, "");
const sampleNumbers = [sampleFacts.account, sampleFacts.nip, sampleFacts.regon, ...sampleFacts.phones].map(digits);

let session: string;

beforeAll(async () => {
  await resetDatabase();
  await addPastor();
  session = await signIn(PASTOR);
});

describe("which sites hide samples", () => {
  it("a DATABASE_URL site without demo content does; the embedded demo and a seeded one do not", () => {
    expect(hidesSamples(readConfig({ DATABASE_URL: "postgres://u@h/db" }))).toBe(true);
    expect(hidesSamples(readConfig({ DATABASE_URL: "postgres://u@h/db", SEED_DEMO: "1" }))).toBe(false);
    expect(hidesSamples(readConfig({}))).toBe(false);
    expect(hidesSamples(readConfig({ DATABASE_URL: "memory:" }))).toBe(false);
  });
});

describe("a real deployment (DATABASE_URL, no demo)", () => {
  it("runs these tests", () => {
    // The test database is Postgres at DATABASE_URL, seeded with nothing: a real site.
    expect(config().database.kind).toBe("postgres");
    expect(hidesSamples()).toBe(true);
  });

  it("a new site: every number is a sample, hidden from visitors, listed in the panel; the demo would show them", async () => {
    const stored = await readFactsFresh();
    expect(samplesToFill(stored.sample)).toEqual(["numer konta", "telefony", "NIP", "REGON"]);
    expect(publicFacts(stored)).toMatchObject({ bank: null, phones: [], nip: null, regon: null });
    expect(publicPaymentPayload(stored)).toBeNull();
    const demo = publicFacts(stored, { hideSamples: false });
    expect(demo.bank?.account).toBe(sampleFacts.account);
    expect(demo.nip).toBe(sampleFacts.nip);
    expect(demo.phones).toHaveLength(2);
    expect(publicPaymentPayload(stored, { hideSamples: false })).toContain("|PL|");

    const text = await visitorText();
    for (const n of sampleNumbers) expect(text).not.toContain(n);
    // The rest of the page is there: address, e-mail.
    expect(text).toContain(sampleFacts.street);
    expect(text).toContain(sampleFacts.email);
    const contact = await (await settle(() => contactLoader())).json();
    expect(contact.paymentCodeSrc).toBeNull();
    expect(churchJsonLd("https://zbor.example", contact.facts, contact.meetings)).not.toHaveProperty("telephone");
    const code = await settle(() => codeLoader(args("/kod-przelewu.svg")));
    expect(code.status).toBe(404);

    const panel = await (
      await settle(() => panelLoader(args("/strefapastora", { headers: { Cookie: session } })))
    ).json();
    expect(panel.toFill).toEqual(["numer konta", "telefony", "NIP", "REGON"]);
    expect(panel.samplesHidden).toBe(true);
  });

  it("a real account shows the giving block at once, without the QR code while the NIP (which it carries) is a sample", async () => {
    await save({ account: ACCOUNT });
    const stored = await readFactsFresh();
    expect(samplesToFill(stored.sample)).toEqual(["telefony", "NIP", "REGON"]);
    const home = await (await settle(() => homeLoader(args("/")))).json();
    expect(home.facts.bank.account).toBe(ACCOUNT);
    expect(home.paymentCodeSrc).toBeNull();
    expect((await settle(() => codeLoader(args("/kod-przelewu.svg")))).status).toBe(404);
    expect(home.facts.nip).toBeNull();
  });

  it("with every number real, all are shown, the QR code too, and the panel has nothing to fill in", async () => {
    await save({ nip: NIP, regon: REGON, phones: PHONE });
    const contact = await (await settle(() => contactLoader())).json();
    expect(contact.facts).toMatchObject({ nip: NIP, regon: REGON, bank: { account: ACCOUNT } });
    expect(contact.facts.phones).toEqual([{ display: "+48 601 234 567", tel: "tel:+48601234567" }]);
    expect(churchJsonLd("https://zbor.example", contact.facts, contact.meetings).telephone).toEqual([
      "+48 601 234 567",
    ]);
    expect(contact.paymentCodeSrc).toMatch(/^\/kod-przelewu\.svg\?v=/);
    expect((await settle(() => codeLoader(args(contact.paymentCodeSrc)))).status).toBe(200);
    const panel = await (
      await settle(() => panelLoader(args("/strefapastora", { headers: { Cookie: session } })))
    ).json();
    expect(panel.toFill).toEqual([]);
  });

  it("a sample number typed back (in any grouping) is a sample again, and hidden", async () => {
    await save({ account: digits(sampleFacts.account), nip: digits(sampleFacts.nip) });
    const stored = await readFactsFresh();
    expect(samplesToFill(stored.sample)).toEqual(["numer konta", "NIP"]);
    const contact = await (await settle(() => contactLoader())).json();
    expect(contact.facts).toMatchObject({ bank: null, nip: null, regon: REGON });
    expect(contact.paymentCodeSrc).toBeNull();
    const text = await visitorText();
    expect(text).not.toContain(digits(sampleFacts.account));
    expect(text).not.toContain(digits(sampleFacts.nip));
  });
});
