// One post of the event form (add or edit): a multipart form of fields read
// by zod and an optional photo, saved, and the answer the page shows; and a
// form kept after the session ended (with its photo), brought back after
// sign-in.
import { z } from "zod";
import type { SessionUser } from "~/features/auth/auth.server";
import {
  type MoveInput,
  type PastorEvent,
  addEvent,
  changeOccurrence,
  formValuesOf,
  updateEvent,
} from "~/features/events/events-admin.server";
import { EVENT_MESSAGES, type EventErrors, type EventFormValues } from "~/features/events/event-fields";
import { DAY_CODES } from "~/features/events/recurrence";
import type { EventPhotoUpload } from "~/features/events/event-photo.server";
import { dropKeptForm, getKeptForm, keptFormView, keptPhotoBytes } from "~/features/kept-forms/kept-forms.server";
import type { FormOutcome } from "~/http/form-reply.server";
import type { UploadResult } from "~/services/upload.server";
import { KEPT_PARAM, type KeptFormView } from "~/features/kept-forms/messages";
import { PASTOR_EVENTS_PATH } from "~/lib/paths";

export interface EventRefusal {
  values: EventFormValues;
  /** The version the form now carries (the stored one after a conflict). */
  version: number;
  errors: EventErrors;
  /** Another tab saved first: what differs and the stored event, as the form would show it. */
  conflict?: { changed: string[]; current: EventFormValues };
  /** A photo was sent and not saved: without JavaScript it must be chosen again (unless one is kept). */
  photoLost?: boolean;
}

export type EventOutcome =
  | { ok: true; message: string; id: number }
  | { ok: false; status: 400 | 404 | 409 | 413 | 503; error: string; refused: EventRefusal | null };

/** What the page shows of a refused post: the page's action data, and the upload route's `refused`. */
export interface EventReply {
  error: string;
  refused: EventRefusal | null;
}

/** The outcome as the page and its upload route answer it (app/http/form-reply.server.ts). */
export function eventFormOutcome(outcome: EventOutcome): FormOutcome<EventReply> {
  if (outcome.ok) return { ok: true, redirectTo: PASTOR_EVENTS_PATH, flash: outcome.message };
  return { ok: false, status: outcome.status, refused: { error: outcome.error, refused: outcome.refused } };
}

/** One photo and the form's fields (each weekday is a checkbox of its own). The routes read the post with these. */
export const EVENT_UPLOAD_LIMITS = { maxFiles: 1, maxFields: 60 };

/**
 * Saves the event the multipart form carried (as the route read it, with
 * EVENT_UPLOAD_LIMITS) with its photo (or the kept form's photo, when none
 * is chosen again), and says what came of it. The caller has checked the
 * session.
 */
export async function submitEventUpload(
  upload: UploadResult,
  target: { kind: "add" } | { kind: "edit"; id: number },
  user: Pick<SessionUser, "id" | "email">,
): Promise<EventOutcome> {
  if (!upload.ok) {
    const typed = typedEvent(Object.fromEntries(upload.fields));
    return {
      ok: false,
      status: upload.status,
      error: upload.message,
      refused: { ...typed, errors: {}, photoLost: true },
    };
  }
  const file = upload.files.find((f) => f.field === "image" && f.size > 0);
  const kept = file
    ? null
    : await getKeptForm({
        id: upload.fields.get(KEPT_PARAM),
        user,
        form: target.kind === "add" ? "event-add" : "event-edit",
      });
  const keptBytes = kept ? await keptPhotoBytes(kept) : null;
  const photo = file
    ? { input: file.path, name: file.name }
    : keptBytes
      ? { input: keptBytes, name: kept?.photo?.name ?? "" }
      : null;
  const outcome = await submitEventForm(upload.fields, target, user, photo);
  return !outcome.ok && outcome.refused && file
    ? { ...outcome, refused: { ...outcome.refused, photoLost: true } }
    : outcome;
}

const text = z.string().max(100_000).catch("");
const fields = z.object({
  title: text,
  startDate: text,
  startTime: text,
  endDate: text,
  endTime: text,
  allDay: z.string().optional(),
  removeImage: z.string().optional(),
  place: text,
  description: text,
  repeat: text,
  interval: text,
  monthWeek: text,
  monthDay: text,
  ends: text,
  untilDate: text,
  count: text,
  publishAt: text,
  version: z.coerce.number().int().nonnegative().catch(0),
});

/** What the form sent, with anything missing as empty (an unticked checkbox is not sent); each day is its own checkbox `day-MO`. */
export function typedEvent(form: Record<string, unknown>): { values: EventFormValues; version: number } {
  const { allDay, removeImage, version, ...rest } = fields.parse(form);
  const days = DAY_CODES.filter((d) => form[`day-${d}`] === "1");
  return { values: { ...rest, allDay: allDay === "1", removeImage: removeImage === "1", days }, version };
}

/** Saves the form's fields and photo (a new one, or none); the answer the page shows. */
export async function submitEventForm(
  form: URLSearchParams,
  target: { kind: "add" } | { kind: "edit"; id: number },
  user: Pick<SessionUser, "id" | "email">,
  photo: EventPhotoUpload | null = null,
): Promise<EventOutcome> {
  const typed = typedEvent(Object.fromEntries(form));
  const intent = form.get("intent");
  const result =
    target.kind === "add"
      ? await addEvent(typed.values, { intent, actor: user, photo })
      : await updateEvent(target.id, typed.values, {
          baseVersion: typed.version,
          intent,
          actor: user,
          photo: { upload: photo, remove: typed.values.removeImage },
        });
  if (result.ok) {
    await dropKeptForm({ id: form.get(KEPT_PARAM), user });
    const draft = intent === "draft" ? " jako szkic" : "";
    return {
      ok: true,
      id: result.id,
      message:
        target.kind === "add"
          ? `Dodano wydarzenie „${result.title}”${draft}.`
          : `Zapisano wydarzenie „${result.title}”${draft}.`,
    };
  }
  if (result.status === 404) return { ok: false, status: 404, error: EVENT_MESSAGES.gone, refused: null };
  if (result.status !== 409) {
    return {
      ok: false,
      status: result.status,
      error: EVENT_MESSAGES.fix,
      refused: { ...typed, errors: result.errors },
    };
  }
  return {
    ok: false,
    status: 409,
    error: EVENT_MESSAGES.conflict,
    refused: {
      values: typed.values,
      version: result.current.version,
      errors: {},
      conflict: { changed: result.changed, current: formValuesOf(result.current) },
    },
  };
}

/** The list's form ('usuń'); here, so the browser build leaves zod out. */
export const eventListForm = z.object({
  intent: z.literal("delete"),
  id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1),
  confirmed: z.string().optional(),
});

/** The edit page's form values of a stored event. */
export function eventFormOf(e: PastorEvent): EventFormValues {
  return formValuesOf(e);
}

/** The form kept for this page (?zachowane=key), if it is the user's and of this kind. */
export async function keptEventForm(
  keptId: string | null,
  user: Pick<SessionUser, "email">,
  kind: "add" | "edit",
): Promise<(KeptFormView & { values: EventFormValues; version: number }) | null> {
  const kept = await getKeptForm({ id: keptId, user, form: kind === "add" ? "event-add" : "event-edit" });
  if (!kept) return null;
  return { ...keptFormView(kept), ...typedEvent(kept.fields) };
}

const occurrenceFields = z.object({
  intent: z.enum(["cancel", "remove", "restore", "move"]),
  date: text.default(""),
  time: text.default(""),
  endTime: text.default(""),
});

export type OccurrenceOutcome =
  | { ok: true; message: string }
  | {
      ok: false;
      status: 400 | 404;
      error: string;
      typed: MoveInput | null;
      errors: { date?: string; time?: string; endTime?: string };
    };

/** One post of an occurrence's forms: 'odwołaj', 'usuń ten termin', 'przywróć' or 'przenieś'. */
export async function submitOccurrenceForm(
  form: URLSearchParams,
  id: number,
  key: string,
  user: Pick<SessionUser, "id" | "email">,
): Promise<OccurrenceOutcome> {
  const parsed = occurrenceFields.safeParse(Object.fromEntries(form));
  if (!parsed.success)
    return { ok: false, status: 400, error: "Nieznane polecenie formularza.", typed: null, errors: {} };
  const { intent, date, time, endTime } = parsed.data;
  const typed = { date, time, endTime };
  const result = await changeOccurrence(
    id,
    key,
    intent === "move" ? { kind: "move", input: typed } : { kind: intent },
    { actor: user },
  );
  if (result.ok) {
    if (intent === "remove") {
      return { ok: true, message: `Usunięto termin ${key} wydarzenia „${result.title}” z kalendarza.` };
    }
    const words = { cancel: "Odwołano", restore: "Przywrócono", move: "Przeniesiono" }[intent];
    return { ok: true, message: `${words} termin ${key} wydarzenia „${result.title}”.` };
  }
  if (result.status === 404) {
    return {
      ok: false,
      status: 404,
      error: "Tego terminu już nie ma (wydarzenie mogło się zmienić).",
      typed,
      errors: {},
    };
  }
  return { ok: false, status: 400, error: EVENT_MESSAGES.fix, typed, errors: result.errors };
}
