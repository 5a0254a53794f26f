// Forms of 'Dane zboru', a testimony's edit, a new event, a ministry and a
// history photo's description posted after their session ended: kept for the pastor's own browser, nothing written,
// shown filled in after sign-in, and saved with one press. The routes as
// Remix calls them, on the real database.
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/services/db.server";
import { events, historyPhotos, keptForms, ministries, sessions } from "~/services/schema";
import { seedChurchContent } from "~/features/church/about.server";
import { getPastorTestimony } from "~/features/church/testimonies.server";
import { readFactsFresh } from "~/features/church/facts.server";
import { keptFormMessage } from "~/features/kept-forms/messages";
import { action as factsAction, loader as factsLoader } from "~/routes/strefapastora.dane-zboru";
import { action as testimonyAction, loader as testimonyLoader } from "~/routes/strefapastora.swiadectwa.edytuj.$id";
import { action as eventAction, loader as eventLoader } from "~/routes/strefapastora.wydarzenia.dodaj";
import { action as ministriesAction, loader as ministriesLoader } from "~/routes/strefapastora.sluzby";
import { action as photosAction, loader as photosLoader } from "~/routes/strefapastora.zdjecia-historii";
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

  it("a ministry's edit: kept, nothing saved; filled in only in the same browser, and one press saves it", async () => {
    const path = "/strefapastora/sluzby";
    const { cookie, csrf } = await endedSession(path, ministriesLoader);
    const [first] = await (await db()).select().from(ministries).orderBy(ministries.position).limit(1);
    const typed = {
      csrf,
      intent: "save",
      id: String(first.id),
      version: String(first.version),
      name: first.name,
      people: "Anna Kowalska\nJan Nowak",
      description: "Próby w każdy wtorek.",
    };
    const res = await settle(() => ministriesAction(args(urlencoded(path, cookie, typed))));
    const { back, key } = keptRedirect(res, path);
    expect(await keptRows()).toMatchObject([{ id: key, owner: PASTOR.email, form: "ministry" }]);
    const stored = async () => (await (await db()).select().from(ministries).where(eq(ministries.id, first.id)))[0];
    expect((await stored()).people).toEqual(first.people);

    type Page = {
      csrf: string;
      kept: { key: string; message: string; id: number | null; values: Record<string, string>; version: number } | null;
    };
    const pageFor = async (cookieHeader: string) =>
      (await (
        await settle(() => ministriesLoader(args(request(back, { headers: { Cookie: cookieHeader } }))))
      ).json()) as Page;
    // Another browser of the same account (no device token of this one) is shown nothing.
    expect((await pageFor(await signIn(PASTOR))).kept).toBeNull();
    const again = await signInAgain(cookie);
    const page = await pageFor(again);
    expect(page.kept).toEqual({
      key,
      photo: false,
      message: keptFormMessage(false),
      id: first.id,
      values: { name: first.name, people: "Anna Kowalska\nJan Nowak", description: "Próby w każdy wtorek." },
      version: first.version,
    });

    const saved = await settle(() =>
      ministriesAction(args(urlencoded(path, again, { ...typed, csrf: page.csrf, zachowane: key }))),
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(path);
    expect(await stored()).toMatchObject({
      people: ["Anna Kowalska", "Jan Nowak"],
      description: "Próby w każdy wtorek.",
    });
    expect(await keptRows()).toEqual([]);
  });

  it("a new ministry: kept, nothing added; after sign-in in the add form, and one press adds it", async () => {
    const path = "/strefapastora/sluzby";
    const { cookie, csrf } = await endedSession(path, ministriesLoader);
    const typed = { csrf, intent: "add", name: "Grupa modlitewna", people: "Ewa Nowak", description: "" };
    const { back, key } = keptRedirect(
      await settle(() => ministriesAction(args(urlencoded(path, cookie, typed)))),
      path,
    );
    const named = async () => (await db()).select().from(ministries).where(eq(ministries.name, "Grupa modlitewna"));
    expect(await named()).toEqual([]);
    const again = await signInAgain(cookie);
    const page = (await (
      await settle(() => ministriesLoader(args(request(back, { headers: { Cookie: again } }))))
    ).json()) as { csrf: string; kept: { id: number | null; values: { name: string } } };
    expect(page.kept).toMatchObject({ id: null, values: { name: "Grupa modlitewna" } });
    const saved = await settle(() =>
      ministriesAction(args(urlencoded(path, again, { ...typed, csrf: page.csrf, zachowane: key }))),
    );
    expect(saved.status).toBe(302);
    expect(await named()).toMatchObject([{ people: ["Ewa Nowak"] }]);
    expect(await keptRows()).toEqual([]);
  });

  it("a history photo's description: kept, nothing saved; filled in only in the same browser, one press saves it", async () => {
    const path = "/strefapastora/zdjecia-historii";
    const [photo] = await (
      await db()
    )
      .insert(historyPhotos)
      .values({ name: "Zdjęcie 1", imageKey: "historia/zdjecie-1.jpg", width: 800, height: 600, position: 0 })
      .returning();
    const { cookie, csrf } = await endedSession(path, photosLoader);
    const typed = { csrf, intent: "describe", id: String(photo.id), version: "1", name: "Pierwsze nabożeństwo, 1990" };
    const { back, key } = keptRedirect(await settle(() => photosAction(args(urlencoded(path, cookie, typed)))), path);
    expect(await keptRows()).toMatchObject([{ id: key, form: "history-photo" }]);
    const stored = async () =>
      (await (await db()).select().from(historyPhotos).where(eq(historyPhotos.id, photo.id)))[0];
    expect((await stored()).name).toBe("Zdjęcie 1");

    type Page = { csrf: string; kept: { key: string; id: number; name: string } | null };
    const pageFor = async (cookieHeader: string) =>
      (await (
        await settle(() => photosLoader(args(request(back, { headers: { Cookie: cookieHeader } }))))
      ).json()) as Page;
    expect((await pageFor(await signIn(PASTOR))).kept).toBeNull();
    const again = await signInAgain(cookie);
    const page = await pageFor(again);
    expect(page.kept).toMatchObject({ key, id: photo.id, name: "Pierwsze nabożeństwo, 1990" });

    const saved = await settle(() =>
      photosAction(args(urlencoded(path, again, { ...typed, csrf: page.csrf, zachowane: key }))),
    );
    expect(saved.status).toBe(302);
    expect((await stored()).name).toBe("Pierwsze nabożeństwo, 1990");
    expect(await keptRows()).toEqual([]);
  });
});
