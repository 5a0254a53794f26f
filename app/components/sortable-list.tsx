// A list the pastor reorders by dragging a row's handle (mouse, touch, or the
// keyboard: space, arrows, space), on top of the rows' own ↑/↓ buttons, which
// stay the way without JavaScript. The new order is posted to the page's
// action as `intent=reorder&id={moved}&order={id,id,…}`; the page then shows
// what the server kept, with its one-time message. An answer `{ error }` (the
// database away: app/http/pastor-door.server.ts) is shown above the list, and
// the list is back in the order the server has.
import {
  type Announcements,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  type UniqueIdentifier,
  closestCenter,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  SortableContext,
  arrayMove,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useFetcher } from "@remix-run/react";
import { type ReactNode, useEffect, useState } from "react";
import { FormError } from "~/components/forms";
import type { OptimisticRow } from "~/components/optimistic";
import { useCsrfToken } from "~/components/pastor";
import { CSRF_FIELD } from "~/lib/csrf";
import { ORDER_SEPARATOR } from "~/lib/order";

export interface SortableItem extends OptimisticRow {
  id: number;
  /** How the row is named to a screen reader and on its handle. */
  label: string;
}

/** False in the server's HTML and the first render in the browser, so both render the same. */
function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** The page's own scroll behaviour is set aside while a row is lifted (the list scrolls the page itself)… */
function instantScrolling() {
  document.documentElement.style.scrollBehavior = "auto";
}

/** …and given back once it is dropped or the move is cancelled. */
function smoothScrolling() {
  document.documentElement.style.removeProperty("scroll-behavior");
}

export function SortableList<T extends SortableItem>({
  items,
  action,
  className,
  children,
}: {
  items: T[];
  /** The page whose action takes `intent=reorder`. */
  action: string;
  className: string;
  /**
   * A row's content; `index` and `count` follow the order shown (also while a
   * new one is being saved), rows leaving the list left out.
   */
  children: (item: T, index: number, count: number) => ReactNode;
}) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<{ error?: string }>();
  const csrf = useCsrfToken();
  // The order just dropped, shown while it is being saved; then the page's data says what the server kept.
  const [pending, setPending] = useState<number[] | null>(null);
  const byId = new Map(items.map((i) => [i.id, i]));
  const saving = fetcher.state !== "idle";
  const shown = saving && pending ? pending.flatMap((id) => byId.get(id) ?? []) : items;
  const refused = !saving && typeof fetcher.data?.error === "string" ? fetcher.data.error : null;
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 }, onActivation: instantScrolling }),
    // Rows can be taller than a phone's screen, so moving one scrolls the page;
    // a smooth scroll (the site's default) would still be under way when the
    // row under the lifted one is judged, and an arrow could land it a place
    // off on a slow device. While a row is lifted, the page scrolls at once.
    useSensor(KeyboardSensor, {
      coordinateGetter: sortableKeyboardCoordinates,
      scrollBehavior: "instant",
      onActivation: instantScrolling,
    }),
  );

  const labelOf = (id: UniqueIdentifier) => byId.get(Number(id))?.label ?? "";
  // Rows a post is removing stay in the page, hidden (see OptimisticRow); rows not yet saved cannot be moved.
  const visible = shown.filter((i) => !i.leaving);
  const movable = visible.filter((i) => !i.unsaved);
  const placeOf = (id: UniqueIdentifier) => visible.findIndex((i) => i.id === Number(id)) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Podniesiono „${labelOf(active.id)}”.`,
    onDragOver: ({ active, over }) =>
      over ? `„${labelOf(active.id)}” nad miejscem ${placeOf(over.id)}.` : `„${labelOf(active.id)}” poza listą.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `Upuszczono „${labelOf(active.id)}” na miejscu ${placeOf(over.id)}.`
        : `Upuszczono „${labelOf(active.id)}”.`,
    onDragCancel: ({ active }) => `Anulowano przenoszenie „${labelOf(active.id)}”.`,
  };

  function onDragEnd({ active, over }: DragEndEvent) {
    smoothScrolling();
    if (!over || active.id === over.id) return;
    const ids = movable.map((i) => i.id);
    const from = ids.indexOf(Number(active.id));
    const to = ids.indexOf(Number(over.id));
    if (from < 0 || to < 0) return;
    const moved = arrayMove(ids, from, to);
    setPending(moved);
    fetcher.submit(
      { intent: "reorder", id: String(active.id), order: moved.join(ORDER_SEPARATOR), [CSRF_FIELD]: csrf },
      { method: "post", action },
    );
  }

  return (
    <>
      <FormError message={refused} />
      {hydrated ? (
        <p className="field-note">
          Przeciągnij za uchwyt ⠿ albo użyj przycisków ↑/↓. Z klawiatury: spacja na uchwycie, strzałki, spacja.
        </p>
      ) : null}
      {/* The same tree with and without the script, so hydrating never remounts a row and loses what was typed in it; only the handles appear. */}
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        onDragCancel={smoothScrolling}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable:
              "Aby przenieść, naciśnij spację lub Enter. Strzałkami przesuń w nowe miejsce, spacją lub Enterem upuść, klawiszem Escape anuluj.",
          },
        }}
      >
        <SortableContext items={movable.map((i) => i.id)} strategy={verticalListSortingStrategy}>
          <ol className={className} aria-busy={saving || undefined}>
            {shown.map((item) => (
              <SortableRow key={item.id} item={item} sortable={hydrated && !item.unsaved} busy={saving}>
                {children(item, visible.indexOf(item), visible.length)}
              </SortableRow>
            ))}
          </ol>
        </SortableContext>
      </DndContext>
    </>
  );
}

function SortableRow({
  item,
  sortable,
  busy,
  children,
}: {
  item: SortableItem;
  sortable: boolean;
  busy: boolean;
  children: ReactNode;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: item.id,
    disabled: busy || !sortable || item.leaving,
    attributes: { roleDescription: "element do przeniesienia" },
  });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={isDragging ? "dragging" : undefined}
      aria-label={item.label}
      hidden={item.leaving}
    >
      {sortable ? (
        <button
          type="button"
          className="drag-handle"
          ref={setActivatorNodeRef}
          {...attributes}
          {...listeners}
          aria-label={`przeciągnij „${item.label}”`}
        >
          <span aria-hidden="true">⠿</span>
        </button>
      ) : null}
      {children}
    </li>
  );
}
