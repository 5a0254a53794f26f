// The parts of the album editor the script builds or changes: photo rows (the
// markup of image-list.tsx, which the server renders: keep the two in step),
// the drag handles, the files on their way with their bars, and the batch
// report (photo-upload.tsx's Report). Plain DOM, no React: the page is not hydrated.
import { ALT_MAX } from "~/features/galleries/constants";
import type { ListImage } from "~/features/galleries/editor/image-list";
import type { UploadItem } from "~/features/galleries/editor/send-photo";

type Child = Node | string | null | false | undefined;

/** An element with its attributes (false and undefined leave one out) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== false && value !== undefined) el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) if (child) el.append(child);
  return el;
}

/** The photo's name after a button's or label's visible text, for screen readers. */
const which = (name: string) => h("span", { class: "visually-hidden" }, `: ${name}`);

const rowButton = (label: string, intent: string, image: ListImage) =>
  h(
    "button",
    { type: "submit", name: "intent", value: `${intent}:${image.key}`, formnovalidate: true, class: "secondary" },
    label,
    which(image.name),
  );

/** A row for a photo the script added; numberRows gives it its place. */
export function rowElement(image: ListImage): HTMLLIElement {
  return h(
    "li",
    { class: "editor-image", "data-key": image.key },
    h("img", { src: image.thumb, alt: "", width: 50, height: 50, loading: "lazy", decoding: "async" }),
    h("span", { class: "editor-image-name" }, image.name),
    h(
      "span",
      { class: "editor-image-alt" },
      h("label", {}, "opis zdjęcia dla niewidomych", which(image.name)),
      h("input", {
        name: `alt:${image.key}`,
        value: image.alt,
        maxlength: ALT_MAX,
        autocomplete: "off",
        "aria-describedby": "alt-help",
      }),
    ),
    h(
      "span",
      { class: "editor-image-actions" },
      rowButton("w górę", "up", image),
      rowButton("w dół", "down", image),
      rowButton("na okładkę", "cover", image),
      rowButton("usuń", "remove", image),
    ),
  );
}

export const nameOf = (row: Element) => row.querySelector(".editor-image-name")?.firstChild?.textContent ?? "";

export const DRAG_INSTRUCTIONS_ID = "photo-drag-instructions";

/** The drag handle a row gets with the script (keyboard and pointer: album-drag.ts). */
export function handleElement(row: Element): HTMLButtonElement {
  return h(
    "button",
    {
      type: "button",
      class: "drag-handle",
      "aria-label": `Przenieś zdjęcie ${nameOf(row)}`,
      "aria-roledescription": "zdjęcie do przeniesienia",
      "aria-describedby": DRAG_INSTRUCTIONS_ID,
    },
    h("span", { "aria-hidden": "true" }, "⠿"),
  );
}

/**
 * Gives each row what depends on its place: the description field's id (and
 * its label's), the cover mark on the first, and which buttons work (none
 * while the form is busy; not 'w górę' on the first, nor 'w dół' on the last).
 */
export function numberRows(rows: HTMLElement[], busy: boolean) {
  rows.forEach((row, index) => {
    const input = row.querySelector<HTMLInputElement>(".editor-image-alt input");
    row.querySelector(".editor-image-alt label")?.setAttribute("for", `alt-${index}`);
    if (input) input.id = `alt-${index}`;
    const name = row.querySelector(".editor-image-name")!;
    const badge = name.querySelector(".cover-badge");
    if (index === 0 && !badge) name.append(h("span", { class: "cover-badge" }, " (okładka)"));
    if (index !== 0) badge?.remove();
    for (const button of row.querySelectorAll<HTMLButtonElement>(".editor-image-actions button")) {
      const intent = button.value.split(":")[0];
      button.disabled =
        busy ||
        ((intent === "up" || intent === "cover") && index === 0) ||
        (intent === "down" && index === rows.length - 1);
    }
    row.querySelector(".drag-handle")?.setAttribute("aria-disabled", String(busy));
  });
}

function stateText(u: UploadItem): string {
  switch (u.phase) {
    case "queued":
      return "czeka";
    case "preparing":
      return "przygotowanie…";
    case "waiting":
      return "brak połączenia, ponawianie…";
    case "uploading":
      return `wysyłanie ${u.total ? Math.round((u.loaded / u.total) * 100) : 0}%`;
    case "processing":
      return "przetwarzanie…";
    case "done":
      return "dodano";
    default:
      return u.message ?? "";
  }
}

/** One file on its way: its name, bar and state, and 'ponów' once the network lost it for good. */
export function uploadElement(u: UploadItem, retry: ((id: string) => void) | null): HTMLLIElement {
  const max = u.total || 1;
  const value = u.phase === "uploading" ? u.loaded : u.phase === "processing" || u.phase === "done" ? max : 0;
  const li = h(
    "li",
    { class: `upload-item ${u.phase}`, "data-id": u.id },
    h("span", { class: "upload-name" }, u.name),
    h("progress", { max, value, "aria-label": `Wysyłanie ${u.name}` }),
    h("span", { class: "upload-state" }, stateText(u)),
  );
  if (u.phase === "failed" && u.lost) {
    const button = h(
      "button",
      { type: "button", class: "secondary", "aria-label": `ponów: ${u.name}`, disabled: !retry },
      "ponów",
    );
    button.addEventListener("click", () => retry?.(u.id));
    li.append(button);
  }
  return li;
}

export function reportElement(report: string, hint: string | null): HTMLDivElement {
  return h(
    "div",
    { role: "status", class: "upload-report" },
    h("p", {}, report),
    hint ? h("p", { class: "field-note" }, hint) : null,
  );
}

/** A message in a `p.form-error` with role alert, the form's own way of showing one. */
export const errorElement = (message: string) => h("p", { role: "alert", class: "form-error" }, message);
