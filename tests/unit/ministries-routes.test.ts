// 'Służby' in the pastor area on the real database: add, rename, move up,
// remove (after a confirmation), each on /sluzby at once; an edit from a
// second tab over a newer one is refused with the pastor's text kept.
import { beforeAll, expect, it } from "vitest";
import { seedChurchContent } from "~/features/church/about.server";
import { sampleMinistries } from "~/content/church";
import { db } from "~/services/db.server";
import { action, loader } from "~/routes/strefapastora.sluzby";
import { loader as publicLoader } from "~/routes/sluzby";
import { ORIGIN, PASTOR, addPastor, signIn } from "../auth-helpers";
import { request, resetDatabase, settle } from "../helpers";

let session: string;
let csrf: string;
const args = (req: Request) => ({ request: req, params: {}, context: {} });

function post(fields: Record<string, string>) {
  return settle(() =>
    action(
      args(
        request("/strefapastora/sluzby", {
          method: "POST",
          body: new URLSearchParams({ csrf, ...fields }),
          headers: { Cookie: session, Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
        }),
      ),
    ),
  );
}

const shown = async () =>
  (
    (await (await settle(() => publicLoader())).json()) as {
      ministries: { id: number; name: string; people: string[]; description: string }[];
    }
  ).ministries;

/** The version of a ministry as the pastor's page has it. */
const versionOf = async (id: number) => {
  const res = await settle(() => loader(args(request("/strefapastora/sluzby", { headers: { Cookie: session } }))));
  const { ministries } = (await res.json()) as { ministries: { id: number; version: number }[] };
  return String(ministries.find((m) => m.id === id)!.version);
};

beforeAll(async () => {
  await resetDatabase();
  await seedChurchContent(await db());
  await addPastor();
  session = await signIn(PASTOR);
  const res = await settle(() => loader(args(request("/strefapastora/sluzby", { headers: { Cookie: session } }))));
  csrf = (await res.json()).csrf;
});

it("starts with the sample ministries in their order", async () => {
  expect((await shown()).map((m) => m.name)).toEqual(sampleMinistries.map((m) => m.name));
});

it("moves a ministry up, renames it and changes its people", async () => {
  const second = (await shown())[1];
  expect((await post({ intent: "up", id: String(second.id) })).status).toBe(302);
  expect((await shown())[0].name).toBe(second.name);
  const res = await post({
    intent: "save",
    id: String(second.id),
    version: await versionOf(second.id),
    name: "Rada starszych",
    people: "Adam Nowak\n\n Ewa Nowak ",
  });
  expect(res.status).toBe(302);
  expect((await shown())[0]).toMatchObject({ name: "Rada starszych", people: ["Adam Nowak", "Ewa Nowak"] });
});

it("shows an optional description on /sluzby, and none once emptied", async () => {
  const m = (await shown())[2];
  const save = async (description: string) =>
    post({
      intent: "save",
      id: String(m.id),
      version: await versionOf(m.id),
      name: m.name,
      people: m.people.join("\n"),
      description,
    });
  expect((await save("Spotkania w każdy czwartek.\r\nZapraszamy!")).status).toBe(302);
  expect((await shown())[2]).toMatchObject({ name: m.name, description: "Spotkania w każdy czwartek.\nZapraszamy!" });
  expect((await save("  ")).status).toBe(302);
  expect((await shown())[2].description).toBe("");
});

it("refuses a ministry without people, keeping what was typed", async () => {
  const res = await post({ intent: "add", name: "Chór", people: " " });
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({ field: "people", values: { name: "Chór" } });
  expect((await shown()).map((m) => m.name)).not.toContain("Chór");
});

it("adds one at the end and removes it only once confirmed", async () => {
  expect((await post({ intent: "add", name: "Chór", people: "Maria" })).status).toBe(302);
  const added = (await shown()).at(-1)!;
  expect(added.name).toBe("Chór");
  const asked = await post({ intent: "delete", id: String(added.id) });
  expect(asked.status).toBe(200);
  expect((await shown()).at(-1)!.name).toBe("Chór");
  expect((await post({ intent: "delete", id: String(added.id), confirmed: "1" })).status).toBe(302);
  expect((await shown()).map((m) => m.name)).not.toContain("Chór");
});

it("takes a dragged order that names every ministry once, and refuses a stale one", async () => {
  const ids = (await shown()).map((m) => m.id);
  const dragged = [ids[2], ids[0], ids[1], ...ids.slice(3)];
  const res = await post({ intent: "reorder", id: String(ids[2]), order: dragged.join(",") });
  expect(res.status).toBe(302);
  expect((await shown()).map((m) => m.id)).toEqual(dragged);
  // A list that lacks one (removed or added in another tab meanwhile) changes nothing.
  expect((await post({ intent: "reorder", id: String(ids[0]), order: ids.slice(1).join(",") })).status).toBe(302);
  expect((await shown()).map((m) => m.id)).toEqual(dragged);
  expect((await post({ intent: "reorder", id: String(ids[0]), order: "1,x" })).status).toBe(400);
  expect((await post({ intent: "reorder", id: String(ids[0]), order: ids.join(",") })).status).toBe(302);
  expect((await shown()).map((m) => m.id)).toEqual(ids);
});

it("refuses a save from a second tab over a newer one, keeping what was typed, and saves it once seen", async () => {
  const m = (await shown())[1];
  const opened = await versionOf(m.id);
  const save = (fields: Record<string, string>, version = opened) =>
    post({ intent: "save", id: String(m.id), version, name: m.name, people: m.people.join("\n"), ...fields });
  // Two tabs opened at the same version; the first saves.
  expect((await save({ people: "Anna Kowalska" })).status).toBe(302);
  const second = await save({ name: "Zespół uwielbienia", description: "Próby we wtorki." });
  expect(second.status).toBe(409);
  expect(await second.json()).toEqual({
    error:
      "Ktoś zapisał tę służbę w innej karcie lub na innym urządzeniu, zanim zapisano Twoje zmiany. Nic nie zostało nadpisane.",
    id: m.id,
    values: { name: "Zespół uwielbienia", description: "Próby we wtorki.", people: m.people.join("\n") },
    version: Number(opened) + 1,
    conflict: {
      changed: ["nazwa", "osoby", "opis"],
      current: {
        id: m.id,
        name: m.name,
        description: m.description,
        people: ["Anna Kowalska"],
        version: Number(opened) + 1,
      },
    },
  });
  expect((await shown())[1]).toMatchObject({ name: m.name, people: ["Anna Kowalska"] });
  // Saved again with the version the refusal gave the form: the pastor's text over the other.
  const again = await save({ name: "Zespół uwielbienia", description: "Próby we wtorki." }, String(Number(opened) + 1));
  expect(again.status).toBe(302);
  expect((await shown())[1]).toMatchObject({ name: "Zespół uwielbienia", description: "Próby we wtorki." });
  // A move changes no text: the version stays, and an edit opened before it saves.
  const before = await versionOf(m.id);
  expect((await post({ intent: "up", id: String(m.id) })).status).toBe(302);
  expect(await versionOf(m.id)).toBe(before);
  expect((await post({ intent: "down", id: String(m.id) })).status).toBe(302);
});
