// The kinds of entry in the history of changes: stored by the server
// (app/services/schema.ts), worded by the history page
// (app/features/activity/actions.ts). Client-safe, and below both layers.

/** Every kind of entry. Stored as text: new ones need no migration. */
export const ACTIVITY_ACTIONS = [
  "created",
  "edited",
  "published",
  "scheduled",
  "binned",
  "restored",
  "purged",
  "signed_in",
  "sign_in_refused",
] as const;

export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

export type ActivitySubject = "article" | "gallery" | "church" | "ministry" | "testimony" | "history_photo" | "event";
