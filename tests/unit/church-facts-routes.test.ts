// 'Dane zboru' called as Remix calls it, on the real database: checks refused
// in Polish with what was typed kept, the two-tab version check, the history
// of changes, the public pages fresh after a save, the QR code's short forms
// counted as typed and the map following the address.
import { beforeAll, describe, expect, it } from "vitest";
import { listActivity } from "~/features/activity/activity.server";
import { sampleFacts } from "~/content/church";
import { action as factsAction, loader as factsLoader } from "~/routes/strefapastora.dane-zboru";
import { loader as panelLoader } from "~/routes/strefapastora._index";
import { loader as contactLoader } from "~/routes/kontakt";
import { loader as homeLoader } from "~/routes/_index";
import { loader as aboutLoader } from "~/routes/onas._index";
import { loader as calendarLoader } from "~/routes/kalendarz._index";
import { loader as googleCalendarLoader } from "~/routes/kalendarz.google";
import { loader as rootLoader } from "~/root";
import { loader as codeLoader } from "~/routes/kod-przelewu[.]svg";
import { loader as rssLoader } from "~/routes/aktualnosci.rss[.]xml";
import { decodeQr } from "../qr";
import { churchJsonLd } from "~/features/seo/structured-data";
import { ORIGIN, PASTOR, addPastor, signIn } from "../auth-helpers";
import { request, resetDatabase, settle } from "../helpers";

let session: string;
let csrf: string;

const args = (req: Request) => ({ request: req, params: {}, context: {} });
const get = (path: string) => request(path, { headers: { Cookie: session } });

async function page() {
  return (await (await settle(() => factsLoader(args(get("/strefapastora/dane-zboru"))))).json()) as {
    state: { version: number; values: Record<string, string> & { creed: string[] } };
    sample: string[];
  };
}

function post(fields: Record<string, string | string[]>) {
  const body = new URLSearchParams({ csrf });
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
  }
  return settle(() =>
    factsAction(
      args(
        request("/strefapastora/dane-zboru", {
          method: "POST",
          body,
          headers: { Cookie: session, Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
        }),
      ),
    ),
  );
}

const GOOD_ACCOUNT = "61 1090 1014 0000 0712 1981 2874";

beforeAll(async () => {
  await resetDatabase();
  await addPastor();
  session = await signIn(PASTOR);
  csrf = ((await (await settle(() => factsLoader(args(get("/strefapastora/dane-zboru"))))).json()) as { csrf: string })
    .csrf;
});

describe("/strefapastora/dane-zboru", () => {
  it("refuses anyone signed out", async () => {
    const res = await settle(() => factsLoader(args(request("/strefapastora/dane-zboru"))));
    expect([302, 401, 403]).toContain(res.status);
    expect(res.status).not.toBe(200);
  });

  it("starts from the samples, every field marked, and the panel lists what is to fill in", async () => {
    const { state, sample } = await page();
    expect(state.version).toBe(0);
    expect(state.values.account).toBe(sampleFacts.account);
    expect(sample).toContain("account");
    const panel = await (await settle(() => panelLoader(args(get("/strefapastora"))))).json();
    expect(panel.toFill).toEqual(["numer konta", "telefony", "NIP", "REGON"]);
  });

  it("refuses a wrong check digit in Polish beside the field, keeping everything typed", async () => {
    const res = await post({ version: "0", account: "61 1090 1014 0000 0712 1981 2875", city: "Kraków" });
    expect(res.status).toBe(400);
    const reply = await res.json();
    expect(reply.refused.errors).toEqual({ account: expect.stringMatching(/błędne cyfry kontrolne/) });
    expect(reply.refused.values).toMatchObject({ account: "61 1090 1014 0000 0712 1981 2875", city: "Kraków" });
    expect((await page()).state.values.city).toBe(sampleFacts.city);
  });

  it("saves a right account and phones; / and /kontakt show them at once, grouped, with tel: in E.164", async () => {
    const res = await post({
      version: "0",
      account: "61109010140000071219812874",
      nip: "526-000-12-46",
      phones: "601234567\n12 345 67 89",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/strefapastora/dane-zboru");
    const after = await page();
    expect(after.state.version).toBe(1);
    expect(after.sample).not.toContain("account");
    expect(after.sample).toContain("regon");

    const contact = await (await settle(() => contactLoader())).json();
    expect(contact.facts.bank.account).toBe(GOOD_ACCOUNT);
    expect(contact.facts.phones).toEqual([
      { display: "+48 601 234 567", tel: "tel:+48601234567" },
      { display: "+48 12 345 67 89", tel: "tel:+48123456789" },
    ]);
    expect(contact.paymentCodeSrc).toMatch(/^\/kod-przelewu\.svg\?v=/);
    // A real site: the REGON is still a sample, so it is left out.
    expect(contact.facts.regon).toBeNull();
    const home = await (await settle(() => homeLoader(args(request("/"))))).json();
    expect(home.facts.bank.account).toBe(GOOD_ACCOUNT);

    const [entry] = await listActivity();
    expect(entry).toMatchObject({ action: "edited", subjectKind: "church", actor: PASTOR.email });
    expect(entry.subjectTitle).toContain("Numer konta");
  });

  it("refuses a silent overwrite from a second tab, then saves over it when sent again", async () => {
    const stale = await post({ version: "0", city: "Niepołomice" });
    expect(stale.status).toBe(409);
    const reply = await stale.json();
    expect(reply.refused.conflict.changed).toEqual(["Miejscowość"]);
    expect(reply.refused.values.city).toBe("Niepołomice");
    const again = await post({ version: String(reply.refused.version), city: "Niepołomice" });
    expect(again.status).toBe(302);
    const root = await settle(() => rootLoader(args(request("/"))));
    expect((await root.json()).site.name).toBe(sampleFacts.name);
    expect((await page()).state.values.city).toBe("Niepołomice");
  });

  it("offers the congregation's Google Calendar only when named, and puts it in the page only once asked for", async () => {
    const calendar = async (path = "/kalendarz") =>
      (await (await settle(() => calendarLoader(args(request(path))))).json()).google;
    const oldPage = () => settle(() => googleCalendarLoader());
    expect(await calendar()).toBeNull();
    expect(await calendar("/kalendarz?google=1")).toBeNull();
    // The old page's address leads below the site's own calendar.
    const moved = await oldPage();
    expect(moved.status).toBe(301);
    expect(moved.headers.get("Location")).toBe("/kalendarz?google=1#kalendarz-google");

    const v = String((await page()).state.version);
    const refused = await post({ version: v, googleCalendarUrl: "https://evil.example/calendar/embed" });
    expect(refused.status).toBe(400);
    expect((await refused.json()).refused.errors).toEqual({ googleCalendarUrl: expect.stringMatching(/Google/) });

    const src = "https://calendar.google.com/calendar/embed?src=zbor%40gmail.com&ctz=Europe%2FWarsaw";
    expect((await post({ version: v, googleCalendarUrl: src })).status).toBe(302);
    // Named: a link first, the address only after the click.
    expect(await calendar()).toEqual({ href: "/kalendarz?google=1#kalendarz-google", src: null });
    expect(await calendar("/kalendarz?google=1")).toEqual({ href: "/kalendarz?google=1#kalendarz-google", src });

    // Emptied: gone again.
    expect((await post({ version: String((await page()).state.version), googleCalendarUrl: "" })).status).toBe(302);
    expect(await calendar()).toBeNull();
  });

  it("renames the congregation in the layout, the structured data and the news feed, and adds, moves and removes creed statements", async () => {
    const rss = () => settle(() => rssLoader(args(request("/aktualnosci/rss.xml"))));
    const rssBefore = await rss();
    const { state } = await page();
    const creed = ["Pierwszy.", "Drugi.", "Trzeci."];
    expect((await post({ version: String(state.version), name: "Zbór w Niepołomicach", creed })).status).toBe(302);
    const root = await (await settle(() => rootLoader(args(request("/"))))).json();
    expect(root.site.name).toBe("Zbór w Niepołomicach");
    const contact = await (await settle(() => contactLoader())).json();
    expect(churchJsonLd(ORIGIN, contact.facts, contact.meetings).name).toBe("Zbór w Niepołomicach");
    const rssAfter = await rss();
    expect(await rssAfter.text()).toContain("<title>Aktualności – Zbór w Niepołomicach</title>");
    expect(rssAfter.headers.get("ETag")).not.toBe(rssBefore.headers.get("ETag"));
    // ↓ on the first statement; the third emptied (removed); one added.
    const v = String((await page()).state.version);
    expect((await post({ version: v, creed: ["Pierwszy.", "Drugi.", "", "Czwarty."], move: "down:0" })).status).toBe(
      302,
    );
    const about = await (await settle(() => aboutLoader())).json();
    expect(about.creed).toEqual(["Drugi.", "Pierwszy.", "Czwarty."]);
  });

  it("takes the QR code's short forms of 20 and 32 characters counted as typed; the code follows at once", async () => {
    const contact = async () =>
      (await (await settle(() => contactLoader())).json()) as { paymentCodeSrc: string | null };
    const before = (await contact()).paymentCodeSrc;
    // 20 and 32 letters of two bytes each: a count of bytes would refuse both.
    const recipient = "ż".repeat(20);
    const title = "Ofiara na Świątynię ąęśćźżółń 32";
    expect([...title]).toHaveLength(32);
    const res = await post({
      version: String((await page()).state.version),
      account: GOOD_ACCOUNT,
      nip: "526-000-12-46",
      qrRecipient: recipient,
      qrTitle: title,
    });
    expect(res.status).toBe(302);
    const after = (await contact()).paymentCodeSrc;
    expect(after).toMatch(/^\/kod-przelewu\.svg\?v=/);
    expect(after).not.toBe(before);
    const code = await settle(() => codeLoader(args(request(after!))));
    expect(code.status).toBe(200);
    expect(await decodeQr(await code.text(), 600)).toBe(
      `5260001246|PL|${GOOD_ACCOUNT.replaceAll(" ", "")}|000000|${recipient}|${title}|||`,
    );
  });

  it("puts the map at the address, or at a pasted Google Maps embed address", async () => {
    const map = async () => (await (await settle(() => contactLoader())).json()).facts.mapEmbedUrl as string;
    const moved = await post({
      version: String((await page()).state.version),
      street: "ul. Rynek 1",
      postalCode: "32-005",
      city: "Niepołomice",
    });
    expect(moved.status).toBe(302);
    const byAddress = new URL(await map());
    expect(byAddress.origin + byAddress.pathname).toBe("https://www.google.com/maps");
    expect(byAddress.searchParams.get("q")).toBe("ul. Rynek 1, Niepołomice");
    expect(byAddress.searchParams.get("output")).toBe("embed");

    const pasted = "https://www.google.com/maps/embed?pb=!1m18!1m12!1m3!1d2563";
    expect((await post({ version: String((await page()).state.version), mapEmbedUrl: pasted })).status).toBe(302);
    expect(await map()).toBe(pasted);
    // Emptied: the address again.
    expect((await post({ version: String((await page()).state.version), mapEmbedUrl: "" })).status).toBe(302);
    expect(new URL(await map()).searchParams.get("q")).toBe("ul. Rynek 1, Niepołomice");
  });

  it.each([
    ["postalCode", "32020", /NN-NNN/],
    ["nip", "526-000-12-47", /cyfrę kontrolną/],
    ["regon", "123456784", /cyfrę kontrolną/],
    ["phones", "601234567\n+48 000 000 00", /nie jest polskim numerem/],
    ["videoChannelUrl", "http://youtube.com", /https/],
    ["mapEmbedUrl", "https://evil.example/maps", /Google Maps/],
    ["qrRecipient", "ż".repeat(21), /Najwyżej 20 znaków/],
    ["qrTitle", "ą".repeat(33), /Najwyżej 32 znaków/],
  ])("refuses a wrong %s", async (field, value, message) => {
    const { state } = await page();
    const res = await post({ version: String(state.version), [field]: value });
    expect(res.status).toBe(400);
    expect((await res.json()).refused.errors[field]).toMatch(message);
  });
});
