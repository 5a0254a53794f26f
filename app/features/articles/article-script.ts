// The article forms' script (/strefapastora/artykuly/dodaj and /edytuj/{id}).
// The pages are rendered by React on the server and never hydrated: React and
// Remix's runtime are most of what kept them under the README's phone goal
// (Lighthouse counts every script requested before the first paint). This
// plain module, bundled on its own by scripts/build-browser-scripts.mjs,
// adds to the server's form what the React form did (the upload route's
// contract: app/components/upload-progress.tsx):
// - the photo shrunk in the browser (app/lib/shrink-photo.ts), then the
//   form sent to the page's upload route with a progress bar, its buttons
//   disabled meanwhile (one post however often it is pressed);
// - saved: the page the server names is opened;
// - refused: the photo's message shown, or the server's page for the
//   refusal read and its form put in place of this one, the chosen photo
//   still chosen (no reload);
// - the database away, or the network: the message over the form, as typed;
// - 'Zmień zdjęcie' un-ticked drops the chosen photo.
// Without JavaScript none of this runs: the form posts as a document.
import { PHOTO_NOTES } from "~/lib/photo-notes";
import { PASTOR_ARTICLES_PATH } from "~/lib/paths";
import { UPLOAD_FAILED_MESSAGE, postWithProgress, uploadOutcome } from "~/lib/post-with-progress";
import { shrinkFormPhotos } from "~/lib/shrink-photo";
import { type UploadPhase, uploadLabel } from "~/lib/upload-phase";

const PROGRESS_ID = "upload-progress";

let form: HTMLFormElement;
// Set before the first await: a second submit meanwhile is ignored.
let sending = false;

type Phase = Exclude<UploadPhase, "idle">;

/** The bar and the line saying what is happening, as the React form showed them; null removes them. */
function showProgress(phase: Phase | null, share: number | null = null) {
  let box = form.querySelector<HTMLDivElement>(".upload-progress");
  if (!phase) return box?.remove();
  if (!box) {
    box = document.createElement("div");
    box.className = "upload-progress";
    box.setAttribute("role", "status");
    const label = document.createElement("label");
    label.htmlFor = PROGRESS_ID;
    const bar = document.createElement("progress");
    bar.id = PROGRESS_ID;
    bar.max = 100;
    box.append(label, bar);
    form.querySelector(".form-buttons")?.before(box);
  }
  const percent = share === null ? null : Math.round(share * 100);
  box.querySelector("label")!.textContent = uploadLabel(phase, percent);
  // Without a value the bar shows that work goes on for an unknown time.
  const bar = box.querySelector("progress")!;
  if (phase === "uploading" && percent !== null) bar.value = percent;
  else bar.removeAttribute("value");
}

function setBusy(busy: boolean) {
  for (const button of form.querySelectorAll<HTMLButtonElement>(".form-buttons button")) {
    button.disabled = busy;
    if (button.value === "publish") {
      if (busy) button.setAttribute("aria-busy", "true");
      else button.removeAttribute("aria-busy");
    }
  }
}

/** The message over the form, where the server shows a refusal's; null removes it. */
function showError(message: string | null) {
  form.querySelector(":scope > p.form-error")?.remove();
  if (!message) return;
  const p = document.createElement("p");
  p.setAttribute("role", "alert");
  p.className = "form-error";
  p.textContent = message;
  const first = Array.from(form.children).find(
    (el) => !(el instanceof HTMLInputElement && el.type === "hidden") && !el.classList.contains("kept-note"),
  );
  form.insertBefore(p, first ?? null);
}

/**
 * A refusal of the photo alone (not a photo, too large, unreadable): the
 * server's page for it differs from this one only by its message and the
 * photo's field marked, so those are shown here, and the photo the server
 * refused is not sent a second time over a phone's uplink.
 */
function isPhotoRefusal(refused: Record<string, unknown>): refused is { error: string } {
  const fields = refused.fields;
  return (
    typeof refused.error === "string" &&
    !refused.conflict &&
    Array.isArray(fields) &&
    fields.length === 1 &&
    fields[0] === "image"
  );
}

function showPhotoRefusal(message: string) {
  // What an earlier refusal marked is no longer what the server says.
  for (const marked of form.querySelectorAll("[aria-invalid]")) marked.removeAttribute("aria-invalid");
  for (const stale of form.querySelectorAll(".field-error, :scope > p.kept-note")) stale.remove();
  form.querySelector('input[type="file"][name="image"]')?.setAttribute("aria-invalid", "true");
  showError(message);
}

/**
 * Any other refusal: the same body posted to the page as a document gives the page
 * the server renders for it (message, marked fields, the newer version of
 * a conflict). A refusal writes nothing, so the second post finds the same.
 * Its form replaces this one's content; the file inputs stay, with the
 * photo chosen. Returns false when that page could not be had.
 */
async function showRefusal(body: FormData, submitter: HTMLButtonElement | null): Promise<boolean> {
  const res = await fetch(form.action, {
    method: "POST",
    body,
    headers: { Accept: "text/html" },
    // Saved after all (whatever refused the first post is gone): the list, with its message.
    redirect: "manual",
  }).catch(() => null);
  if (res?.type === "opaqueredirect") {
    location.assign(PASTOR_ARTICLES_PATH);
    return true;
  }
  const html = res ? await res.text().catch(() => null) : null;
  const next = html
    ? new DOMParser().parseFromString(html, "text/html").querySelector<HTMLFormElement>("form.article-form")
    : null;
  if (!next) return false;
  for (const input of form.querySelectorAll<HTMLInputElement>('input[type="file"]')) {
    next.querySelector(`#${CSS.escape(input.id)}`)?.replaceWith(input);
  }
  // The server cannot know that the photo is still chosen here.
  for (const note of next.querySelectorAll("p.field-note")) {
    if (note.textContent === PHOTO_NOTES.chooseAgain) note.remove();
  }
  form.replaceChildren(...Array.from(document.adoptNode(next).childNodes));
  const same = submitter
    ? form.querySelector<HTMLButtonElement>(`.form-buttons button[value="${CSS.escape(submitter.value)}"]`)
    : null;
  (same ?? form.querySelector<HTMLElement>('[aria-invalid="true"]'))?.focus();
  return true;
}

async function onSubmit(event: SubmitEvent) {
  event.preventDefault();
  if (sending) return;
  sending = true;
  const submitter = event.submitter instanceof HTMLButtonElement ? event.submitter : null;
  // With the pressed button's name and value, as the browser would send them.
  const typed = new FormData(form);
  if (submitter?.name) typed.append(submitter.name, submitter.value);
  setBusy(true);
  showError(null);
  showProgress("preparing");
  // A photo the browser cannot read is sent as it is: the server decides.
  const body = await shrinkFormPhotos(typed).catch(() => typed);
  showProgress("uploading", 0);
  const answer = await postWithProgress(form.dataset.uploadUrl!, body, {
    onProgress: (share) => showProgress("uploading", share),
    // Sent; the server now checks and scales the photo.
    onSent: () => showProgress("processing"),
  });
  const outcome = uploadOutcome(answer);
  if ("saved" in outcome) {
    showProgress("done");
    location.assign(outcome.saved);
    return;
  }
  if ("failure" in outcome) showError(outcome.failure);
  else if (isPhotoRefusal(outcome.refused)) showPhotoRefusal(outcome.refused.error);
  else if (!(await showRefusal(body, submitter))) {
    // The server's page for it could not be had: its message at least.
    const { error } = outcome.refused;
    showError(typeof error === "string" ? error : UPLOAD_FAILED_MESSAGE);
  }
  setBusy(false);
  showProgress(null);
  sending = false;
}

/** 'Zmień zdjęcie' un-ticked: a photo chosen meanwhile would be sent for nothing. */
function onChange(event: Event) {
  const box = event.target;
  if (!(box instanceof HTMLInputElement) || box.name !== "changeImage" || box.checked) return;
  const file = form.elements.namedItem("image");
  if (file instanceof HTMLInputElement) file.value = "";
}

const found = document.querySelector<HTMLFormElement>("form.article-form");
if (found) {
  form = found;
  form.addEventListener("submit", (event) => void onSubmit(event));
  form.addEventListener("change", onChange);
  // Back to this page from the one a save opened, kept whole by the browser: the form is ready again.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    sending = false;
    showProgress(null);
    setBusy(false);
  });
  // A marker for the browser tests: the script has taken over this form.
  form.dataset.enhanced = "";
}
