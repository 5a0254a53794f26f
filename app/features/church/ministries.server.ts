// The pastor's changes to the ministries of /sluzby: each in one transaction
// with its history entry, then the content version so every instance's
// pages follow at once.
import { asc, eq, sql } from "drizzle-orm";
import { type Actor, recordActivity } from "~/features/activity/activity.server";
import type { SessionUser } from "~/features/auth/auth.server";
import { getKeptForm, keptFormView } from "~/features/kept-forms/kept-forms.server";
import type { KeptFormView } from "~/features/kept-forms/messages";
import { type OrderedList, moveRow, reorderRows } from "~/features/ordering/ordered-rows.server";
import { contentChanged } from "~/services/content-version.server";
import { type Db, withDb } from "~/services/db.server";
import { ministries } from "~/services/schema";
import { STALE_ORDER_MESSAGE } from "~/lib/order";

export const MINISTRY_NAME_MAX = 200;
export const MINISTRY_TEXT_MAX = 5_000;

export interface MinistryInput {
  name: string;
  description: string;
  /** One person a line, in the order shown. */
  people: string;
}

/** A ministry as the pastor's page edits it: with the version an edit begins from. */
export interface PastorMinistry {
  id: number;
  name: string;
  description: string;
  people: string[];
  version: number;
}

/** Another tab saved the ministry first: what differs (Polish names) and the stored ministry. */
export interface MinistryConflict {
  changed: string[];
  current: PastorMinistry;
}

export type MinistryResult =
  | { ok: true; name: string }
  | {
      ok: false;
      status: 400 | 404 | 409;
      error: string;
      field?: "name" | "people";
      conflict?: MinistryConflict;
    };

export const MINISTRY_CONFLICT_MESSAGE =
  "Ktoś zapisał tę służbę w innej karcie lub na innym urządzeniu, zanim zapisano Twoje zmiany. Nic nie zostało nadpisane.";

const pastorColumns = {
  id: ministries.id,
  name: ministries.name,
  description: ministries.description,
  people: ministries.people,
  version: ministries.version,
};

/** The ministries in the order of /sluzby, each with its version, for the pastor's page. */
export async function listMinistriesForPastor(): Promise<PastorMinistry[]> {
  return withDb((db) =>
    db.select(pastorColumns).from(ministries).orderBy(asc(ministries.position), asc(ministries.id)),
  );
}

const peopleOf = (text: string) =>
  text
    .split("\n")
    .map((p) => p.trim())
    .filter(Boolean);

function check(
  input: MinistryInput,
): MinistryResult | { ok: true; values: { name: string; description: string; people: string[] } } {
  const name = input.name.trim();
  const description = input.description.replace(/\r\n?/g, "\n").trim();
  const people = peopleOf(input.people.replace(/\r\n?/g, "\n"));
  if (!name) return { ok: false, status: 400, error: "Podaj nazwę służby.", field: "name" };
  if (name.length > MINISTRY_NAME_MAX) {
    return {
      ok: false,
      status: 400,
      error: `Nazwa służby może mieć najwyżej ${MINISTRY_NAME_MAX} znaków.`,
      field: "name",
    };
  }
  if (description.length > MINISTRY_TEXT_MAX || input.people.length > MINISTRY_TEXT_MAX) {
    return { ok: false, status: 400, error: "Za długi tekst.", field: "people" };
  }
  if (!people.length) return { ok: false, status: 400, error: "Wpisz co najmniej jedną osobę.", field: "people" };
  return { ok: true, values: { name, description, people } };
}

async function afterCommit<T extends { ok: boolean }>(db: Db, result: T): Promise<T> {
  if (result.ok) await contentChanged(db);
  return result;
}

const notFound: MinistryResult = { ok: false, status: 404, error: "Tej służby już nie ma." };

export async function addMinistry(input: MinistryInput, { actor }: { actor: Actor }): Promise<MinistryResult> {
  const checked = check(input);
  if (!("values" in checked)) return checked;
  const { values } = checked;
  return withDb(async (db) =>
    afterCommit(
      db,
      await db.transaction(async (tx) => {
        const [{ next }] = await tx
          .select({ next: sql<number>`coalesce(max(${ministries.position}) + 1, 0)::int` })
          .from(ministries);
        const [row] = await tx
          .insert(ministries)
          .values({ ...values, position: next })
          .returning({ id: ministries.id });
        await recordActivity(tx, {
          actor,
          action: "created",
          subject: { kind: "ministry", id: row.id, title: values.name },
        });
        return { ok: true as const, name: values.name };
      }),
    ),
  );
}

/** Polish names of what differs between the stored ministry and a save. */
function differences(a: Omit<PastorMinistry, "id" | "version">, b: Omit<PastorMinistry, "id" | "version">): string[] {
  const changed: string[] = [];
  if (a.name !== b.name) changed.push("nazwa");
  if (JSON.stringify(a.people) !== JSON.stringify(b.people)) changed.push("osoby");
  if (a.description !== b.description) changed.push("opis");
  return changed;
}

/**
 * Saves an edit (name, people, description). Refused (409) when the ministry
 * changed since `baseVersion` (another tab saved first) and the edit would
 * change it; moves leave the version as it is.
 */
export async function updateMinistry(
  id: number,
  input: MinistryInput,
  { baseVersion, actor }: { baseVersion: unknown; actor: Actor },
): Promise<MinistryResult> {
  const checked = check(input);
  if (!("values" in checked)) return checked;
  const { values } = checked;
  return withDb(async (db) => {
    const result: MinistryResult = await db.transaction(async (tx) => {
      const [current] = await tx.select(pastorColumns).from(ministries).where(eq(ministries.id, id)).for("update");
      if (!current) return notFound;
      const changed = differences(current, values);
      if (!changed.length) return { ok: true as const, name: current.name };
      if (Number(baseVersion) !== current.version) {
        return {
          ok: false as const,
          status: 409 as const,
          error: MINISTRY_CONFLICT_MESSAGE,
          conflict: { changed, current },
        };
      }
      await tx
        .update(ministries)
        .set({ ...values, version: current.version + 1 })
        .where(eq(ministries.id, id));
      await recordActivity(tx, { actor, action: "edited", subject: { kind: "ministry", id, title: values.name } });
      return { ok: true as const, name: values.name };
    });
    return afterCommit(db, result);
  });
}

const MINISTRY_ORDER: OrderedList = {
  table: ministries,
  id: ministries.id,
  position: ministries.position,
  label: ministries.name,
  kind: "ministry",
};

/** ↑ or ↓: swaps the ministry with its neighbour. */
export async function moveMinistry(
  id: number,
  way: "up" | "down",
  { actor }: { actor: Actor },
): Promise<MinistryResult> {
  return withDb(async (db) => {
    const change = await db.transaction((tx) => moveRow(tx, MINISTRY_ORDER, id, way, actor));
    return afterCommit(db, change.status === "done" ? { ok: true as const, name: change.label } : notFound);
  });
}

/** A new order after a drag (see reorderRows); a list changed in another tab meanwhile is refused. */
export async function reorderMinistries(
  order: number[],
  moved: number,
  { actor }: { actor: Actor },
): Promise<MinistryResult> {
  return withDb(async (db) => {
    const change = await db.transaction((tx) => reorderRows(tx, MINISTRY_ORDER, order, moved, actor));
    return afterCommit(
      db,
      change.status === "done"
        ? { ok: true as const, name: change.label }
        : { ok: false as const, status: 409 as const, error: STALE_ORDER_MESSAGE },
    );
  });
}

export async function removeMinistry(id: number, { actor }: { actor: Actor }): Promise<MinistryResult> {
  return withDb(async (db) => {
    const result = await db.transaction(async (tx) => {
      const [row] = await tx.delete(ministries).where(eq(ministries.id, id)).returning({ name: ministries.name });
      if (!row) return notFound;
      await recordActivity(tx, { actor, action: "purged", subject: { kind: "ministry", id, title: row.name } });
      return { ok: true as const, name: row.name };
    });
    return afterCommit(db, result);
  });
}

/** A ministry's form kept after the session ended: the ministry it edits (null: a new one), as typed. */
export interface KeptMinistryForm extends KeptFormView {
  id: number | null;
  values: MinistryInput;
  /** The version the edit began from. */
  version: number;
}

/**
 * The ministry's form kept for this page (?zachowane=key), if it is the
 * user's, from this browser. Only a save or a new ministry holds typed text;
 * a kept move or removal is not brought back.
 */
export async function keptMinistryForm(
  keptId: string | null,
  user: Pick<SessionUser, "email" | "deviceId">,
): Promise<KeptMinistryForm | null> {
  const kept = await getKeptForm({ id: keptId, user, form: "ministry" });
  if (!kept) return null;
  const { intent, id, name = "", description = "", people = "", version } = kept.fields;
  if (intent !== "save" && intent !== "add") return null;
  return {
    ...keptFormView(kept),
    id: intent === "save" && /^[1-9][0-9]{0,9}$/.test(id ?? "") ? Number(id) : null,
    values: { name, description, people },
    version: Number(version) || 0,
  };
}
