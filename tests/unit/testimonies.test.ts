// 'Świadectwa' on the real database: add, edit (with the two-tab version
// check), hide, reorder with ↑/↓, move to the bin and back; each change on
// /onas and at /onas/swiadectwa/{id} at once, and in the history of changes.
import { beforeAll, describe, expect, it } from "vitest";
import { sampleTestimonies } from "~/content/church";
import { listActivity } from "~/features/activity/activity.server";
import { listBin, purgeItem, restoreTestimony } from "~/features/bin/bin.server";
import { seedChurchContent } from "~/features/church/about.server";
import {
  addTestimony,
  binTestimony,
  listPastorTestimonies,
  moveTestimony,
  reorderTestimonies,
  setTestimonyHidden,
  updateTestimony,
} from "~/features/church/testimonies.server";
import { currentContentVersion } from "~/services/content-version.server";
import { db } from "~/services/db.server";
import { loader as aboutLoader } from "~/routes/onas._index";
import { loader as testimonyLoader } from "~/routes/onas.swiadectwa.$id";
import { action as listAction, loader as listLoader } from "~/routes/strefapastora.swiadectwa._index";
import { action as editAction, loader as editLoader } from "~/routes/strefapastora.swiadectwa.edytuj.$id";
import { action as addAction } from "~/routes/strefapastora.swiadectwa.dodaj";
import { ORIGIN, PASTOR, addPastor, signIn } from "../auth-helpers";
import { request, resetDatabase, settle } from "../helpers";

const actor = { email: "pastor@example.org" };

const onAbout = async () =>
  ((await (await settle(() => aboutLoader())).json()) as { testimonies: { id: number; title: string }[] }).testimonies;

/** Where /onas/swiadectwa/{id} sends a visitor: 200 (the page) or the redirect's target. */
async function visit(id: number | string) {
  const res = await settle(() =>
    testimonyLoader({ request: request(`/onas/swiadectwa/${id}`), params: { id: String(id) }, context: {} }),
  );
  return res.status === 200 ? 200 : res.headers.get("Location");
}

beforeAll(async () => {
  await resetDatabase();
  await seedChurchContent(await db());
});

describe("the testimonies module", () => {
  it("starts with the five built-in testimonies under their own ids, each page open", async () => {
    expect((await onAbout()).map((t) => [t.id, t.title])).toEqual(sampleTestimonies.map((t) => [t.id, t.title]));
    for (const t of sampleTestimonies) expect(await visit(t.id)).toBe(200);
    expect(await visit(999)).toBe("/onas");
  });

  it("adds a testimony at the end, cleaned, and moves the content version so cached pages follow", async () => {
    const before = await currentContentVersion();
    const result = await addTestimony(
      {
        title: "  Ewa   Kowalska ",
        text: "Pierwszy akapit.\r\n\r\n\r\n\r\nDrugi akapit.  ",
        author: "",
        hidden: false,
      },
      { actor },
    );
    expect(result).toMatchObject({ ok: true, title: "Ewa Kowalska" });
    expect(await currentContentVersion()).toBeGreaterThan(before);
    const shown = await onAbout();
    expect(shown.at(-1)!.title).toBe("Ewa Kowalska");
    const page = await settle(() =>
      testimonyLoader({ request: request("/x"), params: { id: String(shown.at(-1)!.id) }, context: {} }),
    );
    expect((await page.json()).testimony.text).toBe("Pierwszy akapit.\n\nDrugi akapit.");
  });

  it("refuses a testimony without a title or text, in Polish by field, and saves nothing", async () => {
    const count = (await listPastorTestimonies()).length;
    expect(await addTestimony({ title: " ", text: "\n", author: "", hidden: false }, { actor })).toEqual({
      ok: false,
      status: 400,
      errors: { title: "Podaj tytuł świadectwa (np. imię).", text: "Wpisz treść świadectwa." },
    });
    expect((await listPastorTestimonies()).length).toBe(count);
  });

  it("hides a testimony from /onas and its page (redirect to /onas) and shows it again", async () => {
    const [first] = await listPastorTestimonies();
    expect((await setTestimonyHidden(first.id, true, { actor })).ok).toBe(true);
    expect((await onAbout()).map((t) => t.id)).not.toContain(first.id);
    expect(await visit(first.id)).toBe("/onas");
    // The pastor still has it, marked hidden.
    expect((await listPastorTestimonies()).find((t) => t.id === first.id)).toMatchObject({ hidden: true });
    expect((await setTestimonyHidden(first.id, false, { actor })).ok).toBe(true);
    expect(await visit(first.id)).toBe(200);
    expect((await onAbout())[0].id).toBe(first.id);
  });

  it("moves a testimony up and down; the ends stay put", async () => {
    const ids = (await listPastorTestimonies()).map((t) => t.id);
    await moveTestimony(ids[2], "up", { actor });
    expect((await onAbout()).map((t) => t.id).slice(0, 3)).toEqual([ids[0], ids[2], ids[1]]);
    await moveTestimony(ids[2], "down", { actor });
    await moveTestimony(ids[0], "up", { actor });
    expect((await onAbout()).map((t) => t.id)).toEqual(ids);
    expect(await moveTestimony(123456, "up", { actor })).toEqual({ ok: false, status: 404 });
  });

  it("takes a dragged order naming every testimony once; a stale one (another tab added or binned one) changes nothing", async () => {
    const ids = (await listPastorTestimonies()).map((t) => t.id);
    const dragged = [...ids.slice(1), ids[0]];
    expect(await reorderTestimonies(dragged, ids[0], { actor })).toMatchObject({ ok: true });
    expect((await onAbout()).map((t) => t.id)).toEqual(dragged);
    expect(await reorderTestimonies(ids.slice(1), ids[1], { actor })).toEqual({ ok: false, status: 409, stale: true });
    expect(await reorderTestimonies([...ids, ids[0]], ids[0], { actor })).toMatchObject({ ok: false, status: 409 });
    expect((await onAbout()).map((t) => t.id)).toEqual(dragged);
    await reorderTestimonies(ids, ids[0], { actor });
    expect((await onAbout()).map((t) => t.id)).toEqual(ids);
  });

  it("saves an edit from the current version and refuses one from an older version (another tab)", async () => {
    const [t] = await listPastorTestimonies();
    const saved = await updateTestimony(
      t.id,
      { title: t.title, text: "Nowa treść.", author: "Anna K.", hidden: false },
      { baseVersion: t.version, actor },
    );
    expect(saved).toMatchObject({ ok: true });
    const stale = await updateTestimony(
      t.id,
      { title: "Inny tytuł", text: t.text, author: "", hidden: false },
      { baseVersion: t.version, actor },
    );
    expect(stale).toMatchObject({
      ok: false,
      status: 409,
      changed: ["tytuł", "treść", "podpis"],
      current: { text: "Nowa treść.", author: "Anna K.", version: t.version + 1 },
    });
    expect((await listPastorTestimonies())[0]).toMatchObject({ title: t.title, text: "Nowa treść." });
  });

  it("moves a testimony to the bin (gone from /onas), restores it at the end, and purges it for good", async () => {
    const [t] = await listPastorTestimonies();
    expect(await binTestimony(t.id, { actor })).toMatchObject({ ok: true, title: t.title });
    expect((await onAbout()).map((x) => x.id)).not.toContain(t.id);
    expect(await visit(t.id)).toBe("/onas");
    expect(await listBin()).toContainEqual(
      expect.objectContaining({ kind: "testimony", id: String(t.id), title: t.title, deletedBy: actor.email }),
    );
    expect(await restoreTestimony({ id: String(t.id), actor })).toEqual({ ok: true, title: t.title });
    expect((await onAbout()).at(-1)!.id).toBe(t.id);
    expect(await visit(t.id)).toBe(200);

    await binTestimony(t.id, { actor });
    expect(await purgeItem({ kind: "testimony", id: String(t.id), actor })).toBe(true);
    expect(await listBin()).toEqual([]);
    expect(await restoreTestimony({ id: String(t.id), actor })).toEqual({ ok: false, reason: "gone" });
    expect(await visit(t.id)).toBe("/onas");
  });

  it("writes every change in the history of changes", async () => {
    const words = (await listActivity()).map((e) => `${e.action} ${e.subjectKind}`);
    for (const action of ["created", "edited", "binned", "restored", "purged"]) {
      expect(words).toContain(`${action} testimony`);
    }
  });
});

describe("the pastor's pages", () => {
  let session: string;
  let csrf: string;
  const args = (req: Request, params: Record<string, string> = {}) => ({ request: req, params, context: {} });
  const post = (path: string, fields: Record<string, string>, cookie = session) =>
    request(path, {
      method: "POST",
      body: new URLSearchParams({ csrf, ...fields }),
      headers: { Cookie: cookie, Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
    });

  beforeAll(async () => {
    await addPastor();
    session = await signIn(PASTOR);
    csrf = (
      await (
        await settle(() => listLoader(args(request("/strefapastora/swiadectwa", { headers: { Cookie: session } }))))
      ).json()
    ).csrf;
  });

  it("sends a stranger away from the list, the form and its action", async () => {
    expect((await settle(() => listLoader(args(request("/strefapastora/swiadectwa"))))).status).toBe(302);
    const res = await settle(() =>
      editAction(args(post("/strefapastora/swiadectwa/edytuj/1", { title: "x", text: "y" }, ""), { id: "1" })),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).not.toContain("/strefapastora/swiadectwa");
    expect((await listPastorTestimonies()).find((t) => t.id === 1)?.title).not.toBe("x");
  });

  it("adds through the form, keeping what was typed when refused", async () => {
    const refused = await settle(() =>
      addAction(args(post("/strefapastora/swiadectwa/dodaj", { title: "Jan", text: " ", hidden: "1" }))),
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      refused: { values: { title: "Jan", hidden: true }, errors: { text: "Wpisz treść świadectwa." } },
    });
    const added = await settle(() =>
      addAction(args(post("/strefapastora/swiadectwa/dodaj", { title: "Jan", text: "Szkic.", hidden: "1" }))),
    );
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe("/strefapastora/swiadectwa");
    // Added as a draft: the pastor has it, visitors do not.
    expect((await listPastorTestimonies()).at(-1)).toMatchObject({ title: "Jan", hidden: true });
    expect((await onAbout()).map((t) => t.title)).not.toContain("Jan");
  });

  it("edit form: saves with its version, answers 409 with both versions when another tab saved first", async () => {
    const t = (await listPastorTestimonies()).at(-1)!;
    const page = await settle(() =>
      editLoader(
        args(request(`/strefapastora/swiadectwa/edytuj/${t.id}`, { headers: { Cookie: session } }), {
          id: String(t.id),
        }),
      ),
    );
    const { testimony } = await page.json();
    const fields = { title: "Jan", text: "Gotowe.", version: String(testimony.version) };
    const saved = await settle(() => editAction(args(post(`/x`, fields), { id: String(t.id) })));
    expect(saved.status).toBe(302);
    expect(await visit(t.id)).toBe(200);
    const conflict = await settle(() =>
      editAction(args(post(`/x`, { ...fields, text: "Z drugiej karty." }), { id: String(t.id) })),
    );
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({
      refused: { values: { text: "Z drugiej karty." }, conflict: { changed: ["treść"], current: { text: "Gotowe." } } },
    });
  });

  it("list: ↑ moves, 'usuń' asks first and then moves to the bin", async () => {
    const list = await listPastorTestimonies();
    const last = list.at(-1)!;
    const moved = await settle(() =>
      listAction(args(post("/strefapastora/swiadectwa", { intent: "up", id: String(last.id) }))),
    );
    expect(moved.status).toBe(302);
    expect((await listPastorTestimonies()).at(-2)!.id).toBe(last.id);
    const asked = await settle(() => listAction(args(post("/x", { intent: "delete", id: String(last.id) }))));
    expect(asked.status).toBe(200);
    expect((await asked.json()).confirm.question).toBe(`Przenieść świadectwo „${last.title}” do kosza?`);
    expect((await listPastorTestimonies()).map((t) => t.id)).toContain(last.id);
    const binned = await settle(() =>
      listAction(args(post("/x", { intent: "delete", id: String(last.id), confirmed: "1" }))),
    );
    expect(binned.status).toBe(302);
    expect((await listPastorTestimonies()).map((t) => t.id)).not.toContain(last.id);
    expect((await listBin()).map((i) => i.title)).toContain(last.title);
  });
});
