import type { SerializeFrom } from "@remix-run/node";
import { useMatches, useNavigate } from "@remix-run/react";
import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";

/**
 * Upload forms (a photo plus text) sent with a progress bar. A plain
 * `<form method="post" encType="multipart/form-data">` works without
 * JavaScript; with it, `onSubmit` sends the same body with XMLHttpRequest
 * (fetch reports no upload progress) as a Remix data request to the route's
 * action:
 * - a redirect comes back as 204 with X-Remix-Redirect: we navigate there;
 * - data the action returned (an error with the typed values) comes back as
 *   JSON marked X-Remix-Response: it is handed to the page as `data`;
 * - anything else (a thrown 403, a 5xx, a lost connection) is a failure.
 *
 *   const upload = useUploadForm<typeof action>();
 *   const result = upload.data ?? useActionData<typeof action>();
 *   <form method="post" encType="multipart/form-data" onSubmit={upload.onSubmit}>
 *     <CsrfInput /> …
 *     <UploadProgress upload={upload} />
 *     <button type="submit" disabled={upload.busy}>dodaj</button>
 */

export const UPLOAD_FAILED_MESSAGE = "Nie udało się wysłać formularza. Sprawdź połączenie i spróbuj ponownie.";

type Phase = "idle" | "uploading" | "processing" | "done";

export interface UploadForm<T> {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** Between sending and the answer; the submit button is disabled meanwhile. */
  busy: boolean;
  phase: Phase;
  /** Share of the body sent (0–1) while uploading; null when the browser cannot tell. */
  progress: number | null;
  /** The action's answer when it did not redirect (a refusal with the typed values). */
  data: SerializedData<T> | undefined;
  /** A Polish message when the request itself failed. */
  failure: string | null;
}

// What useActionData<typeof action>() yields.
type SerializedData<T> = SerializeFrom<T>;

export function useUploadForm<T = unknown>({ routeId }: { routeId?: string } = {}): UploadForm<T> {
  const matches = useMatches();
  const leafId = routeId ?? matches[matches.length - 1].id;
  const navigate = useNavigate();
  const [phase, setPhase] = useState<Phase>("idle");
  const [progress, setProgress] = useState<number | null>(null);
  const [data, setData] = useState<SerializedData<T> | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);
  // A ref, not state: a second submit in the same tick must see the first.
  const sending = useRef<XMLHttpRequest | null>(null);

  useEffect(() => () => sending.current?.abort(), []);

  const onSubmit = useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (sending.current) return;
      const form = event.currentTarget;
      const url = new URL(form.action, window.location.href);
      url.searchParams.set("_data", leafId);
      const body = new FormData(form);

      const xhr = new XMLHttpRequest();
      sending.current = xhr;
      setPhase("uploading");
      setProgress(0);
      // The previous answer goes, so the next one is announced afresh.
      setData(undefined);
      setFailure(null);

      const finish = () => {
        sending.current = null;
      };
      xhr.upload.onprogress = (e) => setProgress(e.lengthComputable ? e.loaded / e.total : null);
      // Sent; the server now checks and scales the photo.
      xhr.upload.onload = () => {
        setProgress(1);
        setPhase("processing");
      };
      xhr.onload = () => {
        finish();
        const redirectTo = xhr.getResponseHeader("X-Remix-Redirect");
        if (redirectTo) {
          setPhase("done");
          if (xhr.getResponseHeader("X-Remix-Reload-Document")) window.location.assign(redirectTo);
          else navigate(redirectTo);
          return;
        }
        setPhase("idle");
        setProgress(null);
        const isJson = /\bapplication\/json\b/.test(xhr.getResponseHeader("Content-Type") ?? "");
        if (isJson && xhr.getResponseHeader("X-Remix-Response") === "yes") {
          try {
            setData(JSON.parse(xhr.responseText));
            return;
          } catch {
            // Falls through to the generic failure.
          }
        }
        setFailure(UPLOAD_FAILED_MESSAGE);
      };
      xhr.onerror = xhr.ontimeout = () => {
        finish();
        setPhase("idle");
        setProgress(null);
        setFailure(UPLOAD_FAILED_MESSAGE);
      };
      xhr.onabort = finish;
      xhr.open("POST", url.toString());
      xhr.send(body);
    },
    [leafId, navigate],
  );

  return { onSubmit, busy: phase !== "idle", phase, progress, data, failure };
}

/** The bar and a line saying what is happening; nothing while idle. */
export function UploadProgress({
  upload,
  id = "upload-progress",
}: {
  upload: Pick<UploadForm<unknown>, "phase" | "progress">;
  id?: string;
}) {
  if (upload.phase === "idle") return null;
  const percent = upload.progress === null ? null : Math.round(upload.progress * 100);
  const label =
    upload.phase === "uploading"
      ? `Wysyłanie${percent === null ? "…" : `: ${percent}%`}`
      : upload.phase === "processing"
        ? "Przetwarzanie zdjęcia…"
        : "Zapisano.";
  return (
    <div className="upload-progress" role="status">
      <label htmlFor={id}>{label}</label>
      {/* Without a value the bar shows that work goes on for an unknown time. */}
      {upload.phase === "uploading" && percent !== null ? (
        <progress id={id} max={100} value={percent} />
      ) : (
        <progress id={id} max={100} />
      )}
    </div>
  );
}
