import {
  type Announcements,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  type KeyboardCoordinateGetter,
  PointerSensor,
  type UniqueIdentifier,
  closestCenter,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { SortableContext, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { useMemo } from "react";
import type { ClientImage } from "~/features/galleries/editor.server";
import { SortableRow } from "~/features/galleries/editor/image-row";

// The original site's rule: one arrow key press moves a photo 25 px.
export const KEYBOARD_STEP = 25;

const keyboardStep: KeyboardCoordinateGetter = (event, { currentCoordinates: c }) => {
  switch (event.code) {
    case "ArrowDown":
      return { ...c, y: c.y + KEYBOARD_STEP };
    case "ArrowUp":
      return { ...c, y: c.y - KEYBOARD_STEP };
    case "ArrowRight":
      return { ...c, x: c.x + KEYBOARD_STEP };
    case "ArrowLeft":
      return { ...c, x: c.x - KEYBOARD_STEP };
    default:
      return undefined;
  }
};

export function ImageList({
  items,
  sortable,
  busy,
  onDragEnd,
}: {
  items: ClientImage[];
  sortable: boolean;
  busy: boolean;
  onDragEnd: (event: DragEndEvent) => void;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: keyboardStep }),
  );
  const keys = useMemo(() => items.map((i) => i.key), [items]);
  const nameOf = (id: UniqueIdentifier) => items.find((i) => i.key === id)?.name ?? "";
  const placeOf = (id: UniqueIdentifier) => keys.indexOf(String(id)) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Podniesiono zdjęcie ${nameOf(active.id)}.`,
    onDragOver: ({ active, over }) =>
      over
        ? `Zdjęcie ${nameOf(active.id)} nad miejscem ${placeOf(over.id)}.`
        : `Zdjęcie ${nameOf(active.id)} poza listą.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `Upuszczono zdjęcie ${nameOf(active.id)} na miejscu ${placeOf(over.id)}.`
        : `Upuszczono zdjęcie ${nameOf(active.id)}.`,
    onDragCancel: ({ active }) => `Anulowano przenoszenie zdjęcia ${nameOf(active.id)}.`,
  };

  const heading = <h2 id="gallery-images-heading">Kolejność zdjęć ({items.length})</h2>;
  const altHelp = (
    <p className="field-note" id="alt-help">
      Opis zdjęcia odczyta osobom niewidomym czytnik ekranu. Gdy pole zostanie puste, zdjęcie opisze jego numer i tytuł
      galerii.
    </p>
  );
  if (items.length === 0) {
    return (
      <div className="editor-images-block">
        {heading}
        <p className="empty">Nie ma żadnych zdjęć do wyświetlenia.</p>
      </div>
    );
  }
  const rows = items.map((image, index) => (
    <SortableRow key={image.key} image={image} index={index} count={items.length} sortable={sortable} busy={busy} />
  ));
  const list = (
    <ol className="editor-images" aria-labelledby="gallery-images-heading">
      {rows}
    </ol>
  );
  return (
    <div className="editor-images-block">
      {heading}
      {altHelp}
      {sortable ? (
        <p className="field-note" id="drag-help">
          Przeciągnij zdjęcie za uchwyt ⠿ albo użyj przycisków. Z klawiatury: spacja na uchwycie, strzałki, spacja.
        </p>
      ) : null}
      {/* The same tree with and without the script, so hydrating never remounts a
          row and loses what was typed in it; only the drag handles appear. The
          context renders its screen-reader messages beside the list, not inside it. */}
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable:
              "Aby przenieść zdjęcie, naciśnij spację lub Enter. Strzałkami przesuń je w nowe miejsce, spacją lub Enterem upuść, klawiszem Escape anuluj.",
          },
        }}
      >
        <SortableContext items={keys} strategy={verticalListSortingStrategy}>
          {list}
        </SortableContext>
      </DndContext>
    </div>
  );
}
