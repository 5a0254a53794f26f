// One post of the testimony form (add or edit): the fields checked by zod,
// saved, and the answer the page shows; and a form kept after the session
// ended, brought back after sign-in.
import { z } from "zod";
import type { SessionUser } from "~/features/auth/auth.server";
import {
  type PastorTestimony,
  type TestimonyErrors,
  addTestimony,
  updateTestimony,
} from "~/features/church/testimonies.server";
import { dropKeptForm, getKeptForm, keptFormView } from "~/features/kept-forms/kept-forms.server";
import { KEPT_PARAM, type KeptFormView } from "~/features/kept-forms/messages";

/** The form's values as typed. */
export interface TestimonyFormValues {
  title: string;
  text: string;
  author: string;
  hidden: boolean;
}

export interface TestimonyRefusal {
  values: TestimonyFormValues;
  /** The version the form now carries (the stored one after a conflict). */
  version: number;
  errors: TestimonyErrors;
  /** Another tab saved first: what differs and the stored testimony. */
  conflict?: { changed: string[]; current: PastorTestimony };
}

export type TestimonyOutcome =
  | { ok: true; message: string }
  | { ok: false; status: 400 | 404 | 409; error: string; refused: TestimonyRefusal | null };

const fields = z.object({
  title: z.string().default(""),
  text: z.string().default(""),
  author: z.string().default(""),
  hidden: z.string().optional(),
  version: z.coerce.number().int().nonnegative().catch(0),
});

/** What the form sent, with anything missing as empty (a checkbox unticked is not sent). */
export function typedTestimony(form: Record<string, unknown>): { values: TestimonyFormValues; version: number } {
  const parsed = fields.parse(form);
  const { title, text, author, hidden, version } = parsed;
  return { values: { title, text, author, hidden: hidden === "1" }, version };
}

export async function submitTestimonyForm(
  form: URLSearchParams,
  target: { kind: "add" } | { kind: "edit"; id: number },
  user: Pick<SessionUser, "id" | "email">,
): Promise<TestimonyOutcome> {
  const typed = typedTestimony(Object.fromEntries(form));
  const result =
    target.kind === "add"
      ? await addTestimony(typed.values, { actor: user })
      : await updateTestimony(target.id, typed.values, { baseVersion: typed.version, actor: user });
  if (result.ok) {
    await dropKeptForm({ id: form.get(KEPT_PARAM), user });
    return {
      ok: true,
      message:
        target.kind === "add" ? `Dodano świadectwo „${result.title}”.` : `Zapisano świadectwo „${result.title}”.`,
    };
  }
  if (result.status === 404) {
    return { ok: false, status: 404, error: "Tego świadectwa już nie ma (mogło trafić do kosza).", refused: null };
  }
  if (result.status === 400) {
    return {
      ok: false,
      status: 400,
      error: "Popraw zaznaczone pola – nic nie zostało zapisane.",
      refused: { ...typed, errors: result.errors },
    };
  }
  return {
    ok: false,
    status: 409,
    error:
      "Ktoś zapisał to świadectwo w innej karcie lub na innym urządzeniu, zanim zapisano Twoje zmiany. Nic nie zostało nadpisane.",
    refused: {
      values: typed.values,
      version: result.current.version,
      errors: {},
      conflict: { changed: result.changed, current: result.current },
    },
  };
}

/** The form kept for this page (?zachowane=key), if it is the user's and of this kind. */
export async function keptTestimonyForm(
  keptId: string | null,
  user: Pick<SessionUser, "email">,
  kind: "add" | "edit",
): Promise<(KeptFormView & { values: TestimonyFormValues; version: number }) | null> {
  const kept = await getKeptForm({
    id: keptId,
    user,
    form: kind === "add" ? "testimony-add" : "testimony-edit",
  });
  if (!kept) return null;
  return { ...keptFormView(kept), ...typedTestimony(kept.fields) };
}
