// What an upload form's status line says, the same for the React forms
// (app/components/upload-progress.tsx) and the article forms' plain script.

export type UploadPhase = "idle" | "preparing" | "uploading" | "processing" | "done";

/** The line beside the bar; `percent` is the share sent, null when the browser cannot tell. */
export function uploadLabel(phase: Exclude<UploadPhase, "idle">, percent: number | null): string {
  return phase === "preparing"
    ? "Przygotowanie zdjęcia…"
    : phase === "uploading"
      ? `Wysyłanie${percent === null ? "…" : `: ${percent}%`}`
      : phase === "processing"
        ? "Przetwarzanie zdjęcia…"
        : "Zapisano.";
}
