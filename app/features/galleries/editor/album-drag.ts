// Reordering the album's photos by their handles ⠿: with a mouse or a finger
// (SortableJS: pointer and touch events, scrolling near the window's edge),
// and from the keyboard (our own, as dnd-kit did on the React page: space or
// Enter lifts the photo, each arrow moves it 25 px, space or Enter drops it
// where it is nearest a row's centre, Escape puts it back). Screen readers
// hear each step in Polish through a live region.
import Sortable from "sortablejs";
import { DRAG_INSTRUCTIONS_ID, h, nameOf } from "~/features/galleries/editor/album-dom";

// The original site's rule: one arrow key press moves a photo 25 px.
export const KEYBOARD_STEP = 25;

export interface DragOptions {
  list: HTMLOListElement;
  /** While the form is busy nothing can be lifted. */
  busy: () => boolean;
  /** The rows are in their new order in the list (the row moved, from its old place). */
  moved: (row: HTMLElement, from: number) => void;
}

const rowsOf = (list: HTMLElement) => Array.from(list.querySelectorAll<HTMLElement>(":scope > li"));

/** The help text and the live region beside the list (not in it: the list's rows are its only items). */
function accessibility(list: HTMLOListElement) {
  const block = list.parentElement!;
  block.append(
    h(
      "div",
      { id: DRAG_INSTRUCTIONS_ID, hidden: true },
      "Aby przenieść zdjęcie, naciśnij spację lub Enter. Strzałkami przesuń je w nowe miejsce, spacją lub Enterem upuść, klawiszem Escape anuluj.",
    ),
  );
  const live = h("div", {
    id: "photo-drag-live",
    role: "status",
    "aria-live": "assertive",
    "aria-atomic": "true",
    class: "visually-hidden",
  });
  block.append(live);
  return (text: string) => (live.textContent = text);
}

/** Makes the list's rows draggable; returns a function that turns dragging off or on (busy). */
export function enableDragging({ list, busy, moved }: DragOptions): (disabled: boolean) => void {
  const announce = accessibility(list);
  const say = {
    lifted: (name: string) => `Podniesiono zdjęcie ${name}.`,
    over: (name: string, place: number) => `Zdjęcie ${name} nad miejscem ${place}.`,
    dropped: (name: string, place: number) => `Upuszczono zdjęcie ${name} na miejscu ${place}.`,
    cancelled: (name: string) => `Anulowano przenoszenie zdjęcia ${name}.`,
  };

  const sortable = Sortable.create(list, {
    handle: ".drag-handle",
    draggable: ".editor-image",
    // Pointer events for the mouse too (not the browser's own drag and drop),
    // so mouse and touch behave alike; a row follows the pointer after 5 px.
    forceFallback: true,
    fallbackOnBody: true,
    fallbackTolerance: 5,
    animation: 150,
    ghostClass: "drag-placeholder",
    dragClass: "dragging",
    onStart: (e) => announce(say.lifted(nameOf(e.item))),
    onChange: (e) => announce(say.over(nameOf(e.item), (e.newIndex ?? 0) + 1)),
    onEnd: (e) => {
      announce(say.dropped(nameOf(e.item), (e.newIndex ?? 0) + 1));
      if (e.oldIndex !== undefined && e.oldIndex !== e.newIndex) moved(e.item, e.oldIndex);
    },
  });

  // The photo lifted from the keyboard: where it started and how far it went.
  let lifted: {
    row: HTMLElement;
    rows: HTMLElement[];
    from: number;
    over: number;
    centres: number[];
    slot: number;
    dx: number;
    dy: number;
  } | null = null;

  function place(dx: number, dy: number) {
    if (!lifted) return;
    lifted.dx = dx;
    lifted.dy = dy;
    const { row, rows, from, centres, slot } = lifted;
    row.style.transform = `translate3d(${dx}px, ${dy}px, 0)`;
    // The row whose centre is nearest the lifted photo's centre.
    const centre = centres[from] + dy;
    let over = 0;
    centres.forEach((c, i) => {
      if (Math.abs(c - centre) < Math.abs(centres[over] - centre)) over = i;
    });
    // The rows in between make room, as they do under the pointer.
    rows.forEach((r, i) => {
      if (i === from) return;
      const shift = from < i && i <= over ? -slot : over <= i && i < from ? slot : 0;
      r.style.transition = "transform 150ms ease";
      r.style.transform = shift ? `translate3d(0, ${shift}px, 0)` : "";
    });
    if (over !== lifted.over) {
      lifted.over = over;
      announce(say.over(nameOf(row), over + 1));
    }
  }

  function lift(handle: HTMLElement) {
    const row = handle.closest<HTMLElement>("li");
    if (!row || busy()) return;
    const rows = rowsOf(list);
    const rects = rows.map((r) => r.getBoundingClientRect());
    const from = rows.indexOf(row);
    const gap = rects.length > 1 ? rects[1].top - rects[0].bottom : 0;
    lifted = {
      row,
      rows,
      from,
      over: from,
      centres: rects.map((r) => r.top + r.height / 2),
      slot: rects[from].height + gap,
      dx: 0,
      dy: 0,
    };
    row.classList.add("dragging");
    handle.setAttribute("aria-pressed", "true");
    announce(say.lifted(nameOf(row)));
  }

  function put(drop: boolean) {
    if (!lifted) return;
    const { row, rows, from, over } = lifted;
    lifted = null;
    for (const r of rows) {
      r.style.transform = "";
      r.style.transition = "";
    }
    row.classList.remove("dragging");
    const handle = row.querySelector<HTMLElement>(".drag-handle");
    handle?.setAttribute("aria-pressed", "false");
    if (!drop) return announce(say.cancelled(nameOf(row)));
    announce(say.dropped(nameOf(row), over + 1));
    if (over === from) return;
    list.insertBefore(row, over > from ? rows[over].nextSibling : rows[over]);
    // Moving an element takes the focus from it: the keyboard stays on the handle.
    handle?.focus();
    moved(row, from);
  }

  list.addEventListener("keydown", (event) => {
    const handle = (event.target as HTMLElement).closest<HTMLElement>(".drag-handle");
    if (!handle) return;
    const key = event.key;
    if (!lifted) {
      if (key !== " " && key !== "Enter") return;
      event.preventDefault();
      lift(handle);
      return;
    }
    const steps: Record<string, [number, number]> = {
      ArrowDown: [0, KEYBOARD_STEP],
      ArrowUp: [0, -KEYBOARD_STEP],
      ArrowRight: [KEYBOARD_STEP, 0],
      ArrowLeft: [-KEYBOARD_STEP, 0],
    };
    if (steps[key]) {
      event.preventDefault();
      place(lifted.dx + steps[key][0], lifted.dy + steps[key][1]);
    } else if (key === " " || key === "Enter") {
      event.preventDefault();
      put(true);
    } else if (key === "Escape") {
      event.preventDefault();
      put(false);
    }
  });
  // Leaving the handle (Tab, a click elsewhere) puts the photo back.
  list.addEventListener("focusout", (event) => {
    if (lifted && event.target === lifted.row.querySelector(".drag-handle")) put(false);
  });

  return (disabled) => sortable.option("disabled", disabled);
}
