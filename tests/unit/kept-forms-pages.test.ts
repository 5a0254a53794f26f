// Forms of 'Dane zboru', a testimony's edit and a new event posted after
// their session ended: kept for the pastor's own browser, nothing written,
// shown filled in after sign-in, and saved with one press. The routes as
// Remix calls them, on the real database.
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/services/db.server";
import { events, keptForms, sessions } from "~/services/schema";
import { seedChurchContent } from "~/features/church/about.server";
import { getPastorTestimony } from "~/features/church/testimonies.server";
import { readFactsFresh } from "~/features/church/facts.server";
import { keptFormMessage } from "~/features/kept-forms/messages";
import { action as factsAction, loader as factsLoader } from "~/routes/strefapastora.dane-zboru";
import { action as testimonyAction, loader as testimonyLoader } from "~/routes/strefapastora.swiadectwa.edytuj.$id";
import { action as eventAction, loader as eventLoader } from "~/routes/strefapastora.wydarzenia.dodaj";
import { ORIGIN, PASTOR, addPastor, signIn } from "../auth-helpers";
import { request, resetDatabase, settle } from "../helpers";

const args = (req: Request, params: Record<string, string> = {}) => ({ request: req, params, context: {} });

beforeAll(async () => {
  await resetDatabase();
  await seedChurchContent(await db());
  await addPastor();
});

beforeEach(async () => {
  await (await db()).delete(keptForms);
});

/** Signs in, reads the page's form token, then ends the session as another device's sign-out would. */
async function endedSession(
  path: string,
  loader: (a: ReturnType<typeof args>) => unknown,
  params: Record<string, string> = {},
) {
  const cookie = await signIn(PASTOR);
  const res = await settle(() => loader(args(request(path, { headers: { Cookie: cookie } }), params)));
  const { csrf } = (await res.json()) as { csrf: string };
  await (await db()).delete(sessions);
  return { cookie, csrf };
}

/** Signs in again in the same browser (its device token sent along). */
const signInAgain = (cookie: string) =>
  signIn(PASTOR, { Cookie: cookie.split("; ").find((c) => c.startsWith("device="))! });

const urlencoded = (path: string, cookie: string, fields: Record<string, string>) =>
  request(path, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Cookie: cookie, Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
  });

/** The sign-in redirect of a kept form: the address it leads back to, with its key. */
function keptRedirect(res: Response, path: string) {
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("Location")!, ORIGIN);
  expect(location.pathname).toBe("/strefapastora/logowanie");
  const back = location.searchParams.get("redirectTo")!;
  const key = new URL(back, ORIGIN).searchParams.get("zachowane")!;
  expect(back).toBe(`${path}?zachowane=${key}`);
  return { back, key };
}

const keptRows = async () => (await db()).select().from(keptForms);

describe("a form posted after the session ended", () => {
  it("'Dane zboru': kept, nothing saved; after sign-in filled in, and one press saves it", async () => {
    const path = "/strefapastora/dane-zboru";
    const { cookie, csrf } = await endedSession(path, factsLoader);
    const before = await readFactsFresh();
    const typed = { csrf, version: String(before.version), city: "Niepołomice", postalCode: "32-005" };
    const res = await settle(() => factsAction(args(urlencoded(path, cookie, typed))));
    const { back, key } = keptRedirect(res, path);
    expect(await keptRows()).toMatchObject([{ id: key, owner: PASTOR.email, form: "church-facts" }]);
    expect((await readFactsFresh()).facts.city).toBe(before.facts.city);

    const again = await signInAgain(cookie);
    const page = (await (
      await settle(() => factsLoader(args(request(back, { headers: { Cookie: again } }))))
    ).json()) as {
      csrf: string;
      kept: { key: string; message: string };
      state: { version: number; values: { city: string; postalCode: string } };
    };
    expect(page.kept).toEqual({ key, message: keptFormMessage(false) });
    expect(page.state.values).toMatchObject({ city: "Niepołomice", postalCode: "32-005" });
    expect(page.state.version).toBe(before.version);

    const saved = await settle(() =>
      factsAction(args(urlencoded(path, again, { ...typed, csrf: page.csrf, zachowane: key }))),
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(path);
    expect((await readFactsFresh()).facts).toMatchObject({ city: "Niepołomice", postalCode: "32-005" });
    expect(await keptRows()).toEqual([]);
  });

  it("a testimony's edit: kept with the version it began from, and saved with one press", async () => {
    const path = "/strefapastora/swiadectwa/edytuj/2";
    const params = { id: "2" };
    const { cookie, csrf } = await endedSession(path, testimonyLoader, params);
    const before = (await getPastorTestimony(2))!;
    const typed = { csrf, version: String(before.version), title: before.title, text: "Nowa treść świadectwa." };
    const res = await settle(() => testimonyAction(args(urlencoded(path, cookie, typed), params)));
    const { back, key } = keptRedirect(res, path);
    expect(await keptRows()).toMatchObject([{ id: key, form: "testimony-edit" }]);
    expect((await getPastorTestimony(2))!.text).toBe(before.text);

    const again = await signInAgain(cookie);
    const page = (await (
      await settle(() => testimonyLoader(args(request(back, { headers: { Cookie: again } }), params)))
    ).json()) as { csrf: string; kept: { key: string }; testimony: { text: string; version: number } };
    expect(page.kept).toMatchObject({ key });
    expect(page.testimony).toMatchObject({ text: "Nowa treść świadectwa.", version: before.version });

    const saved = await settle(() =>
      testimonyAction(args(urlencoded(path, again, { ...typed, csrf: page.csrf, zachowane: key }), params)),
    );
    expect(saved.status).toBe(302);
    expect((await getPastorTestimony(2))!.text).toBe("Nowa treść świadectwa.");
    expect(await keptRows()).toEqual([]);
  });

  it("a new event: kept, nothing added; after sign-in filled in, and one press adds it", async () => {
    const path = "/strefapastora/wydarzenia/dodaj";
    const { cookie, csrf } = await endedSession(path, eventLoader);
    const fields = {
      csrf,
      version: "0",
      title: "Wieczór uwielbienia",
      startDate: "2030-05-10",
      startTime: "19:00",
      repeat: "weekly",
      interval: "1",
      "day-FR": "1",
      ends: "never",
      intent: "publish",
    };
    const multipart = (cookieHeader: string, extra: Record<string, string>) => {
      const body = new FormData();
      for (const [k, v] of Object.entries({ ...fields, ...extra })) body.append(k, v);
      body.append("image", new File([], "", { type: "application/octet-stream" }));
      return request(path, { method: "POST", body, headers: { Cookie: cookieHeader, Origin: ORIGIN } });
    };
    const res = await settle(() => eventAction(args(multipart(cookie, {}))));
    const { back, key } = keptRedirect(res, path);
    expect(await keptRows()).toMatchObject([{ id: key, form: "event-add" }]);
    const titled = async () => (await db()).select().from(events).where(eq(events.title, fields.title));
    expect(await titled()).toEqual([]);

    const again = await signInAgain(cookie);
    const page = (await (
      await settle(() => eventLoader(args(request(back, { headers: { Cookie: again } }))))
    ).json()) as {
      csrf: string;
      kept: { key: string };
      values: { title: string; startDate: string; repeat: string };
    };
    expect(page.kept).toMatchObject({ key });
    expect(page.values).toMatchObject({ title: fields.title, startDate: "2030-05-10", repeat: "weekly" });

    const saved = await settle(() => eventAction(args(multipart(again, { csrf: page.csrf, zachowane: key }))));
    expect(saved.status).toBe(302);
    expect(await titled()).toMatchObject([{ title: fields.title, startDate: "2030-05-10", weekdays: ["FR"] }]);
    expect(await keptRows()).toEqual([]);
  });
});
