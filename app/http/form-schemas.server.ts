// The zod schemas the routes read forms and query strings with. They live in
// a `.server` module so the browser build leaves them (and zod, 14 KB
// gzipped) out: a schema built at a route module's top level is code the
// bundler must keep, although only the loader or action uses it.
import { z } from "zod";

/** `?strona=` of a paged list: a whole page number, a malformed one read as 1. */
export const pageParam = z.coerce.number().int().min(1).max(100_000).catch(1);

/** A row's id as posted: a positive int4. */
export const rowId = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 31 - 1);

/** The version an edit began from (the two-tab check); a missing or malformed one is 0, which no row has. */
const baseVersion = z.coerce.number().int().nonnegative().catch(0);

/**
 * The forms of a list the pastor orders (ministries, testimonies, the /onas
 * photos): an intent, the row, the question's answer, and a drag's new
 * order (ids joined by commas; `id` is the row dragged).
 */
function orderedListForm<const I extends readonly [string, ...string[]], E extends z.ZodRawShape>(
  intents: I,
  extra: E,
) {
  return z.object({
    intent: z.enum(intents),
    id: rowId,
    confirmed: z.string().optional(),
    order: z.string().optional(),
    ...extra,
  });
}

export const ministryForm = orderedListForm(["add", "save", "up", "down", "reorder", "delete"], {
  // None when adding.
  id: rowId.optional(),
  name: z.string().default(""),
  description: z.string().default(""),
  people: z.string().default(""),
  version: baseVersion,
});

export const testimonyListForm = orderedListForm(["up", "down", "reorder", "hide", "show", "delete"], {});

export const historyPhotoListForm = orderedListForm(["up", "down", "reorder", "describe", "delete"], {
  name: z.string().default(""),
  version: baseVersion,
});

/** The bin's 'przywróć' and 'usuń na zawsze'. */
export const binForm = z.object({
  intent: z.enum(["restore", "purge"]),
  kind: z.enum(["article", "gallery", "testimony", "event"]),
  id: z.string().min(1).max(64),
  title: z.string().max(10_000).optional(),
  confirmed: z.string().optional(),
});

const twoFactorCode = z.string().trim().max(256);

/** The second factor's page: turn on (start, confirm), cancel, new recovery codes, turn off. */
export const twoFactorForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("start") }),
  z.object({ intent: z.literal("cancel") }),
  z.object({ intent: z.literal("confirm"), code: twoFactorCode }),
  z.object({ intent: z.literal("regenerate"), code: twoFactorCode }),
  z.object({ intent: z.literal("disable"), codeOrPassword: z.string().max(256) }),
]);

/** 'zalogowane urządzenia': sign out one session (by its id) or all the others, or forget a remembered device. */
export const sessionForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("one"), id: z.string().regex(/^[0-9a-f]{64}$/) }),
  z.object({ intent: z.literal("others") }),
  z.object({ intent: z.literal("forget"), id: z.string().regex(/^[0-9a-f]{64}$/) }),
]);
