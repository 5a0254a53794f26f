// The pastor's testimonies ('Świadectwa' on /onas): add, edit with the
// two-tab version check, hide (a draft visitors do not see), move to the bin,
// reorder. Each change in one transaction with its history entry, then the
// content version, so every instance's pages follow at once.
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { type Actor, recordActivity } from "~/features/activity/activity.server";
import { moveToBin } from "~/features/bin/bin.server";
import { type OrderedList, lockOrder, moveRow, reorderRows } from "~/features/ordering/ordered-rows.server";
import { contentChanged } from "~/services/content-version.server";
import { type Db, withDb } from "~/services/db.server";
import { testimonies } from "~/services/schema";
import { cleanLine, cleanParagraphs } from "~/lib/text";
import {
  TESTIMONY_AUTHOR_MAX,
  TESTIMONY_CHANGE_NAMES,
  TESTIMONY_TEXT_MAX,
  TESTIMONY_TITLE_MAX,
  type TestimonyField,
} from "~/features/church/testimonies";

/** What the form sends, as typed. */
export interface TestimonyInput {
  title: string;
  text: string;
  author: string;
  hidden: boolean;
}

/** A testimony as the pastor's pages show it. */
export interface PastorTestimony extends TestimonyInput {
  id: number;
  version: number;
}

export type TestimonyErrors = Partial<Record<TestimonyField, string>>;

export type TestimonyResult =
  | { ok: true; id: number; title: string }
  | { ok: false; status: 400; errors: TestimonyErrors }
  | { ok: false; status: 404 }
  /** Another tab saved first: what differs (Polish names) and the stored testimony. */
  | { ok: false; status: 409; changed: string[]; current: PastorTestimony };

/** The input cleaned (spaces, line ends, control characters) and checked; errors in Polish by field. */
export function checkTestimony(
  input: TestimonyInput,
): { ok: true; values: TestimonyInput } | { ok: false; status: 400; errors: TestimonyErrors } {
  const values = {
    title: cleanLine(input.title),
    text: cleanParagraphs(input.text),
    author: cleanLine(input.author),
    hidden: input.hidden,
  };
  const errors: TestimonyErrors = {};
  if (!values.title) errors.title = "Podaj tytuł świadectwa (np. imię).";
  else if ([...values.title].length > TESTIMONY_TITLE_MAX) {
    errors.title = `Tytuł może mieć najwyżej ${TESTIMONY_TITLE_MAX} znaków.`;
  }
  if (!values.text) errors.text = "Wpisz treść świadectwa.";
  else if ([...values.text].length > TESTIMONY_TEXT_MAX) {
    errors.text = `Treść może mieć najwyżej ${TESTIMONY_TEXT_MAX} znaków.`;
  }
  if ([...values.author].length > TESTIMONY_AUTHOR_MAX) {
    errors.author = `Podpis może mieć najwyżej ${TESTIMONY_AUTHOR_MAX} znaków.`;
  }
  return Object.keys(errors).length ? { ok: false, status: 400, errors } : { ok: true, values };
}

const columns = {
  id: testimonies.id,
  title: testimonies.title,
  text: testimonies.text,
  author: testimonies.author,
  hidden: testimonies.hidden,
  version: testimonies.version,
};

const notBinned = isNull(testimonies.deletedAt);

/** Every testimony outside the bin, hidden ones too, in the order of /onas. */
export async function listPastorTestimonies(): Promise<PastorTestimony[]> {
  return withDb((db) =>
    db.select(columns).from(testimonies).where(notBinned).orderBy(asc(testimonies.position), asc(testimonies.id)),
  );
}

/** One testimony outside the bin (hidden ones too), or null. */
export async function getPastorTestimony(id: number): Promise<PastorTestimony | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2 ** 31 - 1) return null;
  const [row] = await withDb((db) =>
    db
      .select(columns)
      .from(testimonies)
      .where(and(eq(testimonies.id, id), notBinned)),
  );
  return row ?? null;
}

async function afterCommit<T extends { ok: boolean }>(db: Db, result: T): Promise<T> {
  if (result.ok) await contentChanged(db);
  return result;
}

/** The testimonies outside the bin, in the order /onas shows them. */
const TESTIMONY_ORDER: OrderedList = {
  table: testimonies,
  id: testimonies.id,
  position: testimonies.position,
  label: testimonies.title,
  kind: "testimony",
  where: notBinned,
};

export async function addTestimony(input: TestimonyInput, { actor }: { actor: Actor }): Promise<TestimonyResult> {
  const checked = checkTestimony(input);
  if (!checked.ok) return checked;
  const { values } = checked;
  return withDb(async (db) =>
    afterCommit(
      db,
      await db.transaction(async (tx) => {
        await lockOrder(tx, TESTIMONY_ORDER);
        const [{ next }] = await tx
          .select({ next: sql<number>`coalesce(max(${testimonies.position}) + 1, 0)::int` })
          .from(testimonies)
          .where(notBinned);
        const [row] = await tx
          .insert(testimonies)
          .values({ ...values, position: next })
          .returning({ id: testimonies.id });
        await recordActivity(tx, {
          actor,
          action: "created",
          subject: { kind: "testimony", id: row.id, title: values.title },
        });
        return { ok: true as const, id: row.id, title: values.title };
      }),
    ),
  );
}

/** Polish names of the fields in which two versions differ. */
function differences(a: TestimonyInput, b: TestimonyInput): string[] {
  return (["title", "text", "author", "hidden"] as const)
    .filter((f) => a[f] !== b[f])
    .map((f) => TESTIMONY_CHANGE_NAMES[f]);
}

/**
 * Saves an edit. Refused (409) when the testimony changed since
 * `baseVersion` (another tab saved first) and the edit would change it.
 */
export async function updateTestimony(
  id: number,
  input: TestimonyInput,
  { baseVersion, actor }: { baseVersion: unknown; actor: Actor },
): Promise<TestimonyResult> {
  const checked = checkTestimony(input);
  if (!checked.ok) return checked;
  const { values } = checked;
  if (!Number.isSafeInteger(id) || id < 1 || id > 2 ** 31 - 1) return { ok: false, status: 404 };
  return withDb(async (db) => {
    const result: TestimonyResult = await db.transaction(async (tx) => {
      const [current] = await tx
        .select(columns)
        .from(testimonies)
        .where(and(eq(testimonies.id, id), notBinned))
        .for("update");
      if (!current) return { ok: false as const, status: 404 as const };
      const changed = differences(current, values);
      if (!changed.length) return { ok: true as const, id, title: current.title };
      if (Number(baseVersion) !== current.version) {
        return { ok: false as const, status: 409 as const, changed, current };
      }
      await tx
        .update(testimonies)
        .set({ ...values, version: current.version + 1 })
        .where(eq(testimonies.id, id));
      await recordActivity(tx, { actor, action: "edited", subject: { kind: "testimony", id, title: values.title } });
      return { ok: true as const, id, title: values.title };
    });
    return afterCommit(db, result);
  });
}

/** 'ukryj' / 'pokaż' from the list: no version check, the list shows the state it changes. */
export async function setTestimonyHidden(
  id: number,
  hidden: boolean,
  { actor }: { actor: Actor },
): Promise<TestimonyResult> {
  return withDb(async (db) => {
    const result: TestimonyResult = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(testimonies)
        .set({ hidden, version: sql`${testimonies.version} + 1` })
        .where(and(eq(testimonies.id, id), notBinned, eq(testimonies.hidden, !hidden)))
        .returning({ title: testimonies.title });
      if (!row) {
        const [same] = await tx
          .select({ title: testimonies.title })
          .from(testimonies)
          .where(and(eq(testimonies.id, id), notBinned));
        return same ? { ok: true as const, id, title: same.title } : { ok: false as const, status: 404 as const };
      }
      await recordActivity(tx, { actor, action: "edited", subject: { kind: "testimony", id, title: row.title } });
      return { ok: true as const, id, title: row.title };
    });
    return afterCommit(db, result);
  });
}

/** ↑ or ↓: swaps the testimony with its neighbour. */
export async function moveTestimony(
  id: number,
  way: "up" | "down",
  { actor }: { actor: Actor },
): Promise<TestimonyResult> {
  return withDb(async (db) => {
    const change = await db.transaction((tx) => moveRow(tx, TESTIMONY_ORDER, id, way, actor));
    return afterCommit(
      db,
      change.status === "done"
        ? { ok: true as const, id, title: change.label }
        : { ok: false as const, status: 404 as const },
    );
  });
}

/** A new order after a drag (see reorderRows); a list changed in another tab meanwhile is refused. */
export async function reorderTestimonies(
  order: number[],
  moved: number,
  { actor }: { actor: Actor },
): Promise<TestimonyResult | { ok: false; status: 409; stale: true }> {
  return withDb(async (db) => {
    const change = await db.transaction((tx) => reorderRows(tx, TESTIMONY_ORDER, order, moved, actor));
    return afterCommit(
      db,
      change.status === "done"
        ? { ok: true as const, id: moved, title: change.label }
        : { ok: false as const, status: 409 as const, stale: true as const },
    );
  });
}

/** 'usuń': to the bin, from where it can be restored for 30 days. */
export async function binTestimony(id: number, { actor }: { actor: Actor }): Promise<TestimonyResult> {
  const title = await moveToBin("testimony", id, { actor });
  return title === null ? { ok: false, status: 404 } : { ok: true, id, title };
}
