// One post of 'Dane zboru': the form's fields (the creed as one input per
// statement, moved by ↑/↓ buttons) turned into the values saveFacts takes,
// and the answer the page shows.
import type { SessionUser } from "~/features/auth/auth.server";
import { FACT_FIELDS, FACT_LABELS, type FactField } from "~/features/church/facts";
import { type FactsForm, factsForm, saveFacts } from "~/features/church/facts.server";
import { dropKeptForm, getKeptForm, keptFormView } from "~/features/kept-forms/kept-forms.server";
import { KEPT_PARAM, type KeptFormView } from "~/features/kept-forms/messages";

/** What the form shows: the values (the creed as a list) and the version they start from. */
export interface FactsFormState {
  values: Omit<FactsForm, "creed"> & { creed: string[] };
  version: number;
}

export type FactsRefusal = FactsFormState & {
  errors: Partial<Record<FactField, string>>;
  /** Another tab saved first: what differs and the stored values; the form now carries the newer version. */
  conflict?: { changed: string[]; current: { label: string; value: string }[] };
};

/** A move button's value: 'up:2' or 'down:0'. */
function applyMove(list: string[], move: string | null): string[] {
  if (!move) return list;
  const [way, at] = move.split(":");
  const i = Number(at);
  const j = way === "up" ? i - 1 : i + 1;
  if (!Number.isInteger(i) || i < 0 || j < 0 || i >= list.length || j >= list.length) return list;
  const out = [...list];
  [out[i], out[j]] = [out[j], out[i]];
  return out;
}

/** The form as posted, creed statements in their (moved) order, empty ones dropped. */
export function typedFacts(form: URLSearchParams): FactsFormState["values"] {
  const creed = applyMove(
    form.getAll("creed").map((c) => c.replace(/\s+/g, " ").trim()),
    form.get("move"),
  ).filter(Boolean);
  const values = Object.fromEntries(
    FACT_FIELDS.filter((f) => f !== "creed").map((f) => [f, form.get(f) ?? ""]),
  ) as Omit<FactsForm, "creed">;
  return { ...values, creed };
}

export async function keptFactsForm(
  keptId: string | null,
  user: Pick<SessionUser, "email">,
): Promise<(KeptFormView & FactsFormState) | null> {
  const kept = await getKeptForm({
    id: keptId,
    user,
    form: "church-facts",
  });
  if (!kept) return null;
  const fields = new URLSearchParams();
  for (const [name, value] of Object.entries(kept.fields)) fields.append(name, value);
  return { ...keptFormView(kept), values: typedFacts(fields), version: Number(kept.fields.version) || 0 };
}

export type FactsOutcome = { ok: true; message: string } | { ok: false; status: 400 | 409; refused: FactsRefusal };

export async function submitFactsForm(
  form: URLSearchParams,
  user: Pick<SessionUser, "id" | "email">,
): Promise<FactsOutcome> {
  const typed = typedFacts(form);
  const sent: Partial<Record<FactField, string>> = { ...typed, creed: typed.creed.join("\n") };
  // Only the fields the form carried: a part of the page that was not sent changes nothing.
  for (const f of FACT_FIELDS) if (f !== "creed" && !form.has(f)) delete sent[f];
  if (!form.has("creed") && !form.has("creedSent")) delete sent.creed;
  const result = await saveFacts(sent, { baseVersion: form.get("version"), actor: user });
  const version = Number(form.get("version")) || 0;
  if (result.ok) {
    await dropKeptForm({ id: form.get(KEPT_PARAM), user });
    const message = result.changed.length
      ? `Zapisano: ${result.changed.map((f) => FACT_LABELS[f]).join(", ")}.`
      : "Nic się nie zmieniło.";
    return { ok: true, message };
  }
  if (result.status === 400) {
    return { ok: false, status: 400, refused: { values: typed, version, errors: result.errors } };
  }
  const current = factsForm(result.current.facts);
  return {
    ok: false,
    status: 409,
    refused: {
      values: typed,
      version: result.current.version,
      errors: {},
      conflict: {
        changed: result.changed.map((f) => FACT_LABELS[f]),
        current: result.changed.map((f) => ({ label: FACT_LABELS[f], value: current[f] })),
      },
    },
  };
}
