// React 18 puts a <textarea>'s text and a <select>'s choice back to what the
// server sent when it hydrates them (inputs it leaves alone). On a slow phone
// the pastor can type for seconds before the page's script runs: what he
// typed or chose then is recorded here and given back once hydration is done,
// through the same events typing makes, so React's own state agrees.

type Field = HTMLTextAreaElement | HTMLSelectElement;

const typed = new Map<Field, string[]>();
let listening = false;

function chosen(select: HTMLSelectElement): string[] {
  return Array.from(select.selectedOptions, (option) => option.value);
}

function changedByUser(field: Field): boolean {
  if (field instanceof HTMLTextAreaElement) return field.value !== field.defaultValue;
  return Array.from(field.options).some((option) => option.selected !== option.defaultSelected);
}

function record(field: Field) {
  typed.set(field, field instanceof HTMLTextAreaElement ? [field.value] : chosen(field));
}

function onEdit(event: Event) {
  const field = event.target;
  if (field instanceof HTMLTextAreaElement || field instanceof HTMLSelectElement) record(field);
}

/** Before hydration: what was already typed, and what is typed until it is done. */
export function keepTypedBeforeHydration() {
  for (const field of document.querySelectorAll<Field>("textarea, select")) {
    if (changedByUser(field)) record(field);
  }
  document.addEventListener("input", onEdit, true);
  document.addEventListener("change", onEdit, true);
  listening = true;
}

/** After hydration: each field the page still shows gets back what was typed in it. */
export function restoreTypedAfterHydration() {
  if (!listening) return;
  listening = false;
  document.removeEventListener("input", onEdit, true);
  document.removeEventListener("change", onEdit, true);
  for (const [field, value] of typed) {
    if (!field.isConnected) continue;
    if (field instanceof HTMLTextAreaElement) {
      if (field.value === value[0]) continue;
      // The prototype's setter: React watches the element's own one and would take this for its own write.
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")!.set!.call(field, value[0]);
      field.dispatchEvent(new Event("input", { bubbles: true }));
    } else {
      const now = chosen(field);
      if (now.length === value.length && now.every((v, i) => v === value[i])) continue;
      for (const option of field.options) option.selected = value.includes(option.value);
      field.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }
  typed.clear();
}
