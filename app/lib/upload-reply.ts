/**
 * The JSON answer of an upload route (see app/components/upload-progress.tsx):
 * where to go after a save, or the refusal the page shows in place — the same
 * data a plain form post gets back from the page's action.
 */
export type UploadReply<Refusal> = { redirectTo: string } | { refused: Refusal };
