// What the editor shows of a batch of photos on its way: one progress bar per
// file, then the batch's one-line report.
export interface UploadItem {
  id: string;
  name: string;
  loaded: number;
  total: number;
  phase: "queued" | "uploading" | "processing" | "done" | "failed";
  message?: string;
}

export function Report({ report, hint }: { report: string; hint: string | null }) {
  return (
    <div role="status" className="upload-report">
      <p>{report}</p>
      {hint ? <p className="field-note">{hint}</p> : null}
    </div>
  );
}

export function UploadList({ uploads }: { uploads: UploadItem[] }) {
  return (
    <ul className="upload-list" aria-label="Wysyłane zdjęcia">
      {uploads.map((u) => (
        <li key={u.id} className={`upload-item ${u.phase}`}>
          <span className="upload-name">{u.name}</span>
          <progress
            max={u.total || 1}
            value={u.phase === "queued" ? 0 : u.phase === "uploading" ? u.loaded : u.total || 1}
            aria-label={`Wysyłanie ${u.name}`}
          />
          <span className="upload-state">
            {u.phase === "queued"
              ? "czeka"
              : u.phase === "uploading"
                ? `wysyłanie ${u.total ? Math.round((u.loaded / u.total) * 100) : 0}%`
                : u.phase === "processing"
                  ? "przetwarzanie…"
                  : u.phase === "done"
                    ? "dodano"
                    : u.message}
          </span>
        </li>
      ))}
    </ul>
  );
}
