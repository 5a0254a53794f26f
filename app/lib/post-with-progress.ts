// The one transport of the site's upload scripts: a POST with XMLHttpRequest
// (fetch reports no upload progress). Free of React, so the album editor's
// plain script (app/features/galleries/editor/album-script.ts) bundles it too.

export const UPLOAD_FAILED_MESSAGE = "Nie udało się wysłać formularza. Sprawdź połączenie i spróbuj ponownie.";

/**
 * Waits before the second and third try of a photo the network lost
 * (the album editor): a weak signal often comes back within seconds.
 */
export const retryWaits = () => [1000, 4000];

/** What came back from a post: its status and parsed JSON (null when the body was not JSON), or null when nothing came. */
export type PostAnswer = { status: number; json: unknown } | null;

/**
 * POSTs a body with XMLHttpRequest, reporting the share sent (null when the
 * browser cannot tell) and the moment the body is all sent; the one
 * transport of the site's upload scripts.
 */
export function postWithProgress(
  url: string,
  body: FormData,
  {
    headers = {},
    onProgress,
    onSent,
    onStart,
  }: {
    headers?: Record<string, string>;
    onProgress?: (share: number | null) => void;
    onSent?: () => void;
    /** Receives the request, e.g. to abort it. */
    onStart?: (xhr: XMLHttpRequest) => void;
  } = {},
): Promise<PostAnswer> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("Accept", "application/json");
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => onProgress?.(e.lengthComputable ? e.loaded / e.total : null);
    xhr.upload.onload = () => onSent?.();
    xhr.onload = () => {
      let json: unknown = null;
      if (/\bapplication\/json\b/.test(xhr.getResponseHeader("Content-Type") ?? "")) {
        try {
          json = JSON.parse(xhr.responseText);
        } catch {
          // Treated as no answer.
        }
      }
      resolve({ status: xhr.status, json });
    };
    xhr.onerror = xhr.ontimeout = xhr.onabort = () => resolve(null);
    onStart?.(xhr);
    xhr.send(body);
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/**
 * What an upload route's answer means (the contract: app/components/upload-progress.tsx):
 * saved, with the page to open; refused, with the data the page's action
 * returns to a plain post; or a failure, with the message to show.
 */
export type UploadOutcome = { saved: string } | { refused: Record<string, unknown> } | { failure: string };

/** Reads a post's answer field by field: the body may come from anything between us and the server. */
export function uploadOutcome(answer: PostAnswer): UploadOutcome {
  const reply = isObject(answer?.json) ? answer.json : {};
  if (answer?.status === 200 && typeof reply.redirectTo === "string") return { saved: reply.redirectTo };
  if (answer && answer.status >= 400 && isObject(reply.refused)) return { refused: reply.refused };
  if (answer?.status === 503 && typeof reply.error === "string") return { failure: reply.error };
  return { failure: UPLOAD_FAILED_MESSAGE };
}
