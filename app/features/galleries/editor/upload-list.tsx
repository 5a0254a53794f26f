// What the editor shows of a batch of photos on its way: one progress bar per
// file, then the batch's one-line report.
export interface UploadItem {
  id: string;
  name: string;
  loaded: number;
  total: number;
  phase: "queued" | "preparing" | "uploading" | "waiting" | "processing" | "done" | "failed";
  message?: string;
  /** Failed on the network (not refused by the server): 'ponów' may send it again. */
  lost?: boolean;
}

export function Report({ report, hint }: { report: string; hint: string | null }) {
  return (
    <div role="status" className="upload-report">
      <p>{report}</p>
      {hint ? <p className="field-note">{hint}</p> : null}
    </div>
  );
}

export function UploadList({ uploads, onRetry }: { uploads: UploadItem[]; onRetry?: (id: string) => void }) {
  return (
    <ul className="upload-list" aria-label="Wysyłane zdjęcia">
      {uploads.map((u) => (
        <li key={u.id} className={`upload-item ${u.phase}`}>
          <span className="upload-name">{u.name}</span>
          <progress
            max={u.total || 1}
            value={u.phase === "uploading" ? u.loaded : ["processing", "done"].includes(u.phase) ? u.total || 1 : 0}
            aria-label={`Wysyłanie ${u.name}`}
          />
          <span className="upload-state">
            {u.phase === "queued"
              ? "czeka"
              : u.phase === "preparing"
                ? "przygotowanie…"
                : u.phase === "waiting"
                  ? "brak połączenia, ponawianie…"
                  : u.phase === "uploading"
                    ? `wysyłanie ${u.total ? Math.round((u.loaded / u.total) * 100) : 0}%`
                    : u.phase === "processing"
                      ? "przetwarzanie…"
                      : u.phase === "done"
                        ? "dodano"
                        : u.message}
          </span>
          {u.phase === "failed" && u.lost ? (
            <button
              type="button"
              className="secondary"
              aria-label={`ponów: ${u.name}`}
              disabled={!onRetry}
              onClick={() => onRetry?.(u.id)}
            >
              ponów
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
