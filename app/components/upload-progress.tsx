import { useNavigate } from "@remix-run/react";
import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { postWithProgress, uploadOutcome } from "~/lib/post-with-progress";
import { type UploadPhase, uploadLabel } from "~/lib/upload-phase";

/**
 * Upload forms (a photo plus text) sent with a progress bar.
 *
 * Without JavaScript a plain `<form method="post" encType="multipart/form-data">`
 * posts to the page's own action, which redirects or renders the page again
 * with the refusal. With JavaScript, `onSubmit` sends the same body with
 * XMLHttpRequest (fetch reports no upload progress) to the page's upload
 * route, a resource route of ours, e.g. /strefapastora/artykuly/dodaj/wyslij.
 * The contract of an upload route (its JSON: UploadReply in app/lib/upload-reply.ts):
 * - request: POST, the form's multipart body as is (CSRF field included),
 *   `Accept: application/json`;
 * - saved: 200 `{ "redirectTo": "/…" }` (plus the one-time message's cookie):
 *   the page navigates there; also a form kept after the session ended
 *   (app/features/kept-forms): then the address is the sign-in page, which leads back;
 * - refused: 4xx/5xx `{ "refused": … }`, the very data the page's action
 *   returns to a plain post (message, typed values): handed to the page;
 * - the database away: 503 `{ "error": "Nie zapisano zmian…" }`
 *   (app/http/pastor-door.server.ts): that message is shown, the form as typed;
 * - anything else (a refused session, a proxy's error page, a lost
 *   connection) is a failure shown as UPLOAD_FAILED_MESSAGE.
 * Both routes call the same function of the feature's .server module and
 * answer through app/http/form-reply.server.ts (pageReply / uploadReply).
 * The answer is read by `uploadOutcome` (app/lib/post-with-progress.ts),
 * here and in the article forms' plain script (app/features/articles/article-script.ts),
 * which are not hydrated.
 *
 *   const upload = useUploadForm<ArticleRefusal>(uploadUrl);
 *   const result = upload.data ?? useActionData<typeof action>();
 *   <form method="post" encType="multipart/form-data" onSubmit={upload.onSubmit}>
 *     <CsrfInput /> …
 *     <UploadProgress upload={upload} />
 *     <button type="submit" disabled={upload.busy}>dodaj</button>
 */

type Phase = UploadPhase;

export interface UploadForm<Refusal> {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** Between sending and the answer; the submit button is disabled meanwhile. */
  busy: boolean;
  phase: Phase;
  /** Share of the body sent (0–1) while uploading; null when the browser cannot tell. */
  progress: number | null;
  /** The route's refusal (the message and the typed values). */
  data: Refusal | undefined;
  /** A Polish message when the request itself failed. */
  failure: string | null;
}

/** The form's submit handler and what the page shows of the upload; `url` is the page's upload route. */
export function useUploadForm<Refusal>(url: string): UploadForm<Refusal> {
  const navigate = useNavigate();
  const [phase, setPhase] = useState<Phase>("idle");
  const [progress, setProgress] = useState<number | null>(null);
  const [data, setData] = useState<Refusal | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);
  // A ref, not state: a second submit in the same tick must see the first.
  const sending = useRef<XMLHttpRequest | null>(null);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      sending.current?.abort();
    };
  }, []);

  const onSubmit = useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (sending.current) return;
      // With the pressed button's name and value, as the browser would send them.
      const submitter = (event.nativeEvent as SubmitEvent).submitter;
      const typed = new FormData(event.currentTarget, submitter instanceof HTMLButtonElement ? submitter : null);
      // Taken before the first await: a second submit meanwhile is ignored.
      const pending = new XMLHttpRequest();
      sending.current = pending;
      setPhase("preparing");
      setProgress(0);
      // The previous answer goes, so the next one is announced afresh.
      setData(undefined);
      setFailure(null);
      // A phone's photo leaves small (app/lib/shrink-photo.ts, loaded on the first submit, so the
      // page opens without it); the server still checks everything.
      void import("~/lib/shrink-photo")
        .then(({ shrinkFormPhotos }) => shrinkFormPhotos(typed))
        .catch(() => typed)
        .then((body) => {
          if (!mounted.current || sending.current !== pending) return null;
          setPhase("uploading");
          return postWithProgress(url, body, {
            onStart: (xhr) => (sending.current = xhr),
            onProgress: setProgress,
            // Sent; the server now checks and scales the photo.
            onSent: () => {
              setProgress(1);
              setPhase("processing");
            },
          });
        })
        .then((answer) => {
          sending.current = null;
          if (!mounted.current) return;
          const outcome = uploadOutcome(answer);
          if ("saved" in outcome) {
            setPhase("done");
            navigate(outcome.saved);
            return;
          }
          setPhase("idle");
          setProgress(null);
          if ("refused" in outcome) setData(outcome.refused as Refusal);
          else setFailure(outcome.failure);
        });
    },
    [url, navigate],
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
  const label = uploadLabel(upload.phase, percent);
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
