// The album editor's script (/strefapastora/galeria/dodaj and /edytuj/{slug}).
// The page is rendered by React on the server and never hydrated: React and
// Remix's runtime alone weigh more than this page may load (README, "Pastor
// pages…"). This plain module, bundled on its own by
// scripts/build-browser-scripts.mjs, adds to the server's form:
// - 'dodaj zdjęcie' sends the chosen files one per request to the photos
//   route (app/routes/strefapastora.galeria.dodaj.zdjecia.ts), shrunk first,
//   with a bar each, sent again by itself after 1 s and 4 s when the network
//   loses it, and 'ponów' after the last try; the rows are built from its JSON;
// - photos dragged by their handles (album-drag.ts), the new order saved;
// - the form's buttons sent without leaving the page, as the router sent
//   them on the React page: the answer to a save goes to its page, the
//   database's outage is shown over the form with everything typed kept.
// Without JavaScript none of this runs: every button posts the whole form.
import type { ListImage } from "~/features/galleries/editor/image-list";
import type { ClientImage, PhotosResponse } from "~/features/galleries/editor.server";
import { batchReport } from "~/features/galleries/constants";
import {
  errorElement,
  h,
  handleElement,
  numberRows,
  reportElement,
  rowElement,
  uploadElement,
} from "~/features/galleries/editor/album-dom";
import { enableDragging } from "~/features/galleries/editor/album-drag";
import { type SendOutcome, type UploadItem, sendPhoto, shrinkInTurn } from "~/features/galleries/editor/send-photo";
import { CSRF_FIELD, CSRF_HEADER } from "~/lib/csrf";
import { GALLERY_PHOTOS_PATH } from "~/lib/paths";
import { UPLOAD_FAILED_MESSAGE } from "~/lib/post-with-progress";

// One file per request. On a phone the uplink is the slow part, so it is
// never left idle while the server works: the next file starts going up as
// soon as the one before has all been sent (not when its answer comes), and
// up to this many are on their way at once (one going up, the others being
// checked and scaled by the server, which renders them one at a time).
// Sending two bodies at once would only share the uplink between them.
const IN_FLIGHT = 3;

const ORDER_FAILED = "Nie udało się zapisać nowej kolejności. Odśwież stronę i spróbuj ponownie.";

// What the script keeps while the pastor works. It outlives the page's main
// part, which is replaced when the server answers a button with the form again.
const state = {
  draftId: null as string | null,
  uploading: false,
  savingOrder: false,
  submitting: false,
  /** The last batch's files, one bar each. */
  uploads: [] as UploadItem[],
  summary: null as { report: string; hint: string | null } | null,
  /** What went wrong in a script request, shown under the photos. */
  scriptError: null as string | null,
  /** The last batch, for 'ponów' on a file the network lost. */
  batch: null as { before: string[]; files: File[]; ids: string[]; outcomes: SendOutcome[] } | null,
};

const busy = () => state.uploading || state.savingOrder || state.submitting;

let form: HTMLFormElement;
let setDragDisabled: ((disabled: boolean) => void) | null = null;

const list = () => form.querySelector<HTMLOListElement>("ol.editor-images");
const rows = () => Array.from(list()?.querySelectorAll<HTMLElement>(":scope > li") ?? []);
const keys = () => rows().map((row) => row.dataset.key!);
const fieldset = () => form.querySelector<HTMLFieldSetElement>(".photo-upload")!;

/** The editor's address naming the draft, so that a reload keeps it. */
function pageAddress() {
  const page = form.dataset.pageUrl!;
  return state.draftId ? `${page}?szkic=${encodeURIComponent(state.draftId)}` : page;
}

/** The draft the script works on (the first photo sent or order saved creates it). */
function setDraft(id: string) {
  state.draftId = id;
  form.dataset.draftId = id;
  form.action = pageAddress();
}

/** Buttons, fields' places and handles as the state says. */
function render() {
  const b = busy();
  numberRows(rows(), b);
  setDragDisabled?.(b);
  for (const button of form.querySelectorAll<HTMLButtonElement>(".photo-upload > button, .form-buttons button")) {
    button.disabled = b;
  }
  const count = rows().length;
  const heading = form.querySelector("#gallery-images-heading");
  if (heading) heading.textContent = `Kolejność zdjęć (${count})`;
}

function renderUploads() {
  const box = fieldset();
  let ul = box.querySelector<HTMLUListElement>(".upload-list");
  if (!state.uploads.length) return ul?.remove();
  if (!ul) {
    ul = h("ul", { class: "upload-list", "aria-label": "Wysyłane zdjęcia" });
    box.querySelector(".photo-upload > button")!.after(ul);
  }
  const retry = busy() ? null : (id: string) => void retryUpload(id);
  ul.replaceChildren(...state.uploads.map((u) => uploadElement(u, retry)));
}

/** One file's bar moved: only its own row changes. */
function progressOf(id: string, patch: Partial<UploadItem>) {
  state.uploads = state.uploads.map((u) => (u.id === id ? { ...u, ...patch } : u));
  const item = state.uploads.find((u) => u.id === id);
  const old = fieldset().querySelector(`.upload-item[data-id="${id}"]`);
  if (item && old) old.replaceWith(uploadElement(item, busy() ? null : (i) => void retryUpload(i)));
}

function renderMessages() {
  const box = fieldset();
  // The batch's report stands in for the report of a post without the script.
  // Put in again only when it says something new: a screen reader reads it out each time.
  const shown = box.querySelector(".upload-report");
  const report = state.summary && reportElement(state.summary.report, state.summary.hint);
  if (report && report.textContent !== shown?.textContent) {
    shown?.remove();
    box.append(report);
  }
  box.querySelector(":scope > p.form-error")?.remove();
  if (state.scriptError) box.append(errorElement(state.scriptError));
}

function setBusy(patch: Partial<Pick<typeof state, "uploading" | "savingOrder" | "submitting">>) {
  Object.assign(state, patch);
  render();
  renderUploads();
}

/** The list with the drag handles, built on the first photo when the album had none. */
function ensureList(): HTMLOListElement {
  let ol = list();
  if (ol) return ol;
  const block = form.querySelector(".editor-images-block")!;
  block.querySelector(".empty")?.remove();
  block.append(
    h(
      "p",
      { class: "field-note", id: "alt-help" },
      "Opis zdjęcia odczyta osobom niewidomym czytnik ekranu. Gdy pole zostanie puste, zdjęcie opisze jego numer i tytuł galerii.",
    ),
  );
  ol = h("ol", { class: "editor-images", "aria-labelledby": "gallery-images-heading" });
  block.append(ol);
  makeSortable(ol);
  return ol;
}

function makeSortable(ol: HTMLOListElement) {
  ol.before(
    h(
      "p",
      { class: "field-note", id: "drag-help" },
      "Przeciągnij zdjęcie za uchwyt ⠿ albo użyj przycisków. Z klawiatury: spacja na uchwycie, strzałki, spacja.",
    ),
  );
  for (const row of rows()) row.prepend(handleElement(row));
  setDragDisabled = enableDragging({ list: ol, busy, moved: (row, from) => void onMoved(row, from) });
}

/** Shows the photos in this order; `added` are photos new to the list. */
function showPhotos(order: string[], added: ListImage[] = []) {
  const ol = ensureList();
  const present = new Map(rows().map((row) => [row.dataset.key!, row]));
  for (const image of added) {
    if (present.has(image.key)) continue;
    const row = rowElement(image);
    row.prepend(handleElement(row));
    present.set(image.key, row);
  }
  for (const key of order) {
    const row = present.get(key);
    if (row) ol.append(row);
  }
  render();
}

/** The typed values and the album's identity, sent with every script request. */
function commonFields(body: FormData | URLSearchParams) {
  body.append(CSRF_FIELD, csrf());
  if (state.draftId) body.append("szkic", state.draftId);
  const title = form.dataset.albumTitle;
  if (title !== undefined) body.append("galeria", title);
  for (const name of ["title", "description", "date", "version", "publishAt"]) {
    const field = form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | null;
    if (field) body.append(name, field.value);
  }
  // Photo descriptions typed so far are kept in the draft too.
  for (const field of form.querySelectorAll<HTMLInputElement>('input[name^="alt:"]')) {
    body.append(field.name, field.value);
  }
}

const csrf = () => (form.elements.namedItem(CSRF_FIELD) as HTMLInputElement).value;

/** The address names the draft now: a reload keeps the photos and what was typed. */
const rememberDraft = () => history.replaceState(history.state, "", pageAddress());

/** Saves an order; on failure the list goes back to `before` (the server kept that one). */
async function saveOrder(order: string[], before: string[]): Promise<boolean> {
  // A small url-encoded form: no files.
  const body = new URLSearchParams();
  commonFields(body);
  body.append("intent", "reorder");
  for (const key of order) body.append("order", key);
  setBusy({ savingOrder: true });
  const res = await fetch(GALLERY_PHOTOS_PATH, {
    method: "POST",
    body,
    headers: { [CSRF_HEADER]: csrf(), Accept: "application/json" },
  }).catch(() => null);
  const answer = (await res?.json().catch(() => null)) as PhotosResponse | null;
  const ok = Boolean(res?.ok && answer && "draftId" in answer && answer.draftId);
  if (ok) setDraft((answer as { draftId: string }).draftId);
  else showPhotos(before);
  state.scriptError = ok ? null : answer && "error" in answer ? answer.error : ORDER_FAILED;
  setBusy({ savingOrder: false });
  renderMessages();
  return ok;
}

/** A photo dragged to its new place (the list already shows it there); `from` is where it was. */
async function onMoved(row: HTMLElement, from: number) {
  const order = keys();
  const before = order.filter((key) => key !== row.dataset.key);
  before.splice(from, 0, row.dataset.key!);
  if (await saveOrder(order, before)) rememberDraft();
}

const refusedOf = (outcomes: SendOutcome[], files: File[]) =>
  outcomes.flatMap((o, i) => (o?.reason ? [{ name: files[i].name, reason: o.reason }] : []));

/** The photos a batch added, in the order the files were chosen. */
const addedImages = (outcomes: SendOutcome[]): ClientImage[] => outcomes.flatMap((o) => (o?.image ? [o.image] : []));

async function uploadOne(chosen: File, id: string, sending: { file?: Promise<File>; onLeft?: () => void } = {}) {
  return sendPhoto(chosen, id, csrf(), commonFields, (patch) => progressOf(id, patch), setDraft, sending);
}

/** 'dodaj zdjęcie': the chosen files, one per request, a few at a time. */
async function uploadChosen(event: MouseEvent) {
  event.preventDefault();
  const input = form.querySelector<HTMLInputElement>("#photos")!;
  const files = Array.from(input.files ?? []);
  // As on the original site, with no file chosen the button does nothing.
  if (files.length === 0 || busy()) return;
  input.value = "";
  const stamp = Date.now().toString(36);
  state.uploads = files.map((f, i) => ({
    id: `${stamp}-${i}`,
    name: f.name,
    loaded: 0,
    total: f.size,
    phase: "queued",
  }));
  state.summary = null;
  state.scriptError = null;
  setBusy({ uploading: true });
  renderMessages();
  const before = keys();
  const ids = state.uploads.map((u) => u.id);
  const outcomes: SendOutcome[] = new Array(files.length);
  // Each file is shrunk while the one before it goes up.
  const shrunk = shrinkInTurn(files);
  const finished: Promise<void>[] = [];
  let inFlight = 0;
  let roomMade = () => {};
  for (let i = 0; i < files.length; i++) {
    while (inFlight >= IN_FLIGHT) await new Promise<void>((resolve) => (roomMade = resolve));
    inFlight++;
    let leave = () => {};
    const left = new Promise<void>((resolve) => (leave = resolve));
    const done = uploadOne(files[i], ids[i], { file: shrunk(i), onLeft: leave })
      .then((outcome) => {
        outcomes[i] = outcome;
        // Shown in the order chosen, whatever order they finish in.
        const added = addedImages(outcomes);
        if (outcome.image) showPhotos([...before, ...added.map((a) => a.key)], added);
      })
      .finally(() => {
        inFlight--;
        leave();
        roomMade();
      });
    finished.push(done);
    // One at a time until a draft exists (the first accepted photo creates
    // it), then the next as soon as this one has left the uplink.
    await (state.draftId ? left : done);
  }
  await Promise.all(finished);

  state.batch = { before, files, ids, outcomes };
  state.summary = {
    report: batchReport(files.length, refusedOf(outcomes, files)),
    hint: outcomes.find((o) => o.hint)?.hint ?? null,
  };
  renderMessages();
  // Parallel uploads join the album in the order the server finished them;
  // the album keeps the order they were chosen in.
  const chosen = addedImages(outcomes).map((a) => a.key);
  if (chosen.length > 1) await saveOrder([...before, ...chosen], keys());
  setBusy({ uploading: false });
  if (chosen.length) rememberDraft();
}

/** 'ponów': one file of the last batch, sent again; the album keeps the order the files were chosen in. */
async function retryUpload(id: string) {
  const last = state.batch;
  const i = last?.ids.indexOf(id) ?? -1;
  if (!last || i < 0 || busy()) return;
  state.scriptError = null;
  setBusy({ uploading: true });
  renderMessages();
  last.outcomes[i] = await uploadOne(last.files[i], id);
  const image = last.outcomes[i].image;
  if (image) {
    // Where the server put it (last), then where it was chosen.
    const shown = [...keys(), image.key];
    showPhotos(shown, [image]);
    const chosen = addedImages(last.outcomes).map((a) => a.key);
    const rest = shown.filter((key) => !chosen.includes(key));
    const order = [
      ...rest.filter((key) => last.before.includes(key)),
      ...chosen,
      ...rest.filter((key) => !last.before.includes(key)),
    ];
    if (await saveOrder(order, shown)) showPhotos(order);
    state.summary = { report: batchReport(last.files.length, refusedOf(last.outcomes, last.files)), hint: null };
    rememberDraft();
  }
  setBusy({ uploading: false });
  renderMessages();
}

/**
 * Any other button ('zapisz', 'zapisz jako szkic', a row's 'w górę'…): the
 * whole form goes to the page's action as the router sent it on the React
 * page (`/page.data`: Remix's single fetch), so that the answer can be read
 * without leaving the page:
 * - a redirect (202 with its `Location`): another page is opened; the editor
 *   itself (a draft's address) is read and put in place of this one;
 * - the database away (503 from app/http/pastor-door.server.ts, `{ error }`):
 *   the message over the form, the form as typed;
 * - the form refused (the router's data, which only React could render): the
 *   same form posted as a document, and the server renders the message. A
 *   refusal writes nothing (editorPost), so the second post finds the same.
 */
async function onSubmit(event: SubmitEvent) {
  const submitter = event.submitter as HTMLButtonElement | null;
  event.preventDefault();
  if (busy()) return;
  const body = new FormData(form);
  if (submitter?.name) body.append(submitter.name, submitter.value);
  const action = new URL(form.action, location.href);
  const data = new URL(action);
  data.pathname = `${data.pathname}.data`;
  setBusy({ submitting: true });
  const res = await fetch(data, { method: "POST", body }).catch(() => null);
  const to = res?.status === 202 ? res.headers.get("Location") : null;
  if (to) return go(new URL(to, location.href), submitter);
  if (res?.status === 503 && res.headers.get("Content-Type")?.includes("text/x-script")) {
    showFormError(outageMessage(await res.text()));
    return setBusy({ submitting: false });
  }
  if (!res) {
    showFormError(UPLOAD_FAILED_MESSAGE);
    return setBusy({ submitting: false });
  }
  // Sent again as a document, the pressed button's intent with it (a disabled button sends nothing).
  if (submitter?.name) form.append(h("input", { type: "hidden", name: submitter.name, value: submitter.value }));
  form.submit();
}

/**
 * The message of the outage's answer: turbo-stream's flat JSON of
 * `{ data: { error } }` (app/http/pastor-door.server.ts scriptAnswer), whose
 * last value is the message.
 */
function outageMessage(text: string): string {
  try {
    const values = JSON.parse(text.split("\n")[0]) as unknown[];
    const last = values[values.length - 1];
    if (typeof last === "string") return last;
  } catch {
    // A body we cannot read: the general message.
  }
  return UPLOAD_FAILED_MESSAGE;
}

/** The message over the form, where the server shows a refusal's. */
function showFormError(message: string) {
  form.querySelector(":scope > p.form-error")?.remove();
  const first = Array.from(form.children).find((el) => !(el instanceof HTMLInputElement && el.type === "hidden"));
  form.insertBefore(errorElement(message), first ?? null);
}

/**
 * After a redirect: the editor again (its draft's address) is read and put in
 * place, the pressed button's focus kept; any other page is opened.
 */
async function go(to: URL, submitter: HTMLButtonElement | null) {
  if (to.pathname !== location.pathname) return location.assign(to);
  const res = await fetch(to, { headers: { Accept: "text/html" } }).catch(() => null);
  const html = res?.ok ? await res.text() : null;
  const main = html ? new DOMParser().parseFromString(html, "text/html").querySelector("main") : null;
  if (!res || !main?.querySelector("form.gallery-form") || new URL(res.url).pathname !== to.pathname) {
    return location.assign(to);
  }
  document.querySelector("main")!.replaceWith(document.adoptNode(main));
  // The address the page came from (a draft gone sends the editor to its start).
  history.replaceState(history.state, "", res.url);
  state.submitting = false;
  start();
  if (submitter) {
    const same = form.querySelector<HTMLButtonElement>(
      `button[name="${submitter.name}"][value="${CSS.escape(submitter.value)}"]`,
    );
    if (same && !same.disabled) same.focus();
  }
}

/** Takes over the page's form (again after the main part was replaced). */
function start() {
  const found = document.querySelector<HTMLFormElement>("form.gallery-form");
  if (!found) return;
  form = found;
  state.draftId = form.dataset.draftId ?? null;
  setDragDisabled = null;
  // A marker for the browser tests: the script has taken over this form.
  form.dataset.enhanced = "";
  // The script sends one file per request: the limit of a plain post is not the pastor's.
  form.querySelector(".photo-upload .field .field-note")?.remove();
  form
    .querySelector<HTMLButtonElement>('.photo-upload > button[value="upload"]')!
    .addEventListener("click", uploadChosen);
  form.addEventListener("submit", onSubmit);
  const ol = list();
  if (ol) makeSortable(ol);
  render();
  renderUploads();
  renderMessages();
}

start();
