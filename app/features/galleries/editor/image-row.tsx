import { useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import type { CSSProperties, ReactNode } from "react";
import type { ClientImage } from "~/features/galleries/editor.server";
import { ALT_MAX } from "~/features/galleries/constants";

export function SortableRow(props: {
  image: ClientImage;
  index: number;
  count: number;
  sortable: boolean;
  busy: boolean;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: props.image.key,
    disabled: props.busy || !props.sortable,
    attributes: { roleDescription: "zdjęcie do przeniesienia" },
  });
  return (
    <Row
      {...props}
      rowRef={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      dragging={isDragging}
      handle={
        props.sortable ? (
          <button
            type="button"
            className="drag-handle"
            ref={setActivatorNodeRef}
            {...attributes}
            {...listeners}
            aria-label={`Przenieś zdjęcie ${props.image.name}`}
          >
            <span aria-hidden="true">⠿</span>
          </button>
        ) : null
      }
    />
  );
}

function Row({
  image,
  index,
  count,
  busy,
  handle,
  rowRef,
  style,
  dragging = false,
}: {
  image: ClientImage;
  index: number;
  count: number;
  busy: boolean;
  handle?: ReactNode;
  rowRef?: (node: HTMLElement | null) => void;
  style?: CSSProperties;
  dragging?: boolean;
}) {
  const which = <span className="visually-hidden">: {image.name}</span>;
  return (
    <li ref={rowRef} style={style} className={`editor-image${dragging ? " dragging" : ""}`} data-key={image.key}>
      {handle}
      <img src={image.thumb} alt="" width={50} height={50} loading="lazy" decoding="async" />
      <span className="editor-image-name">
        {image.name}
        {index === 0 ? <span className="cover-badge"> (okładka)</span> : null}
      </span>
      <span className="editor-image-alt">
        <label htmlFor={`alt-${index}`}>opis zdjęcia dla niewidomych{which}</label>
        <input
          id={`alt-${index}`}
          name={`alt:${image.key}`}
          defaultValue={image.alt}
          maxLength={ALT_MAX}
          autoComplete="off"
          aria-describedby="alt-help"
        />
      </span>
      <span className="editor-image-actions">
        <button
          type="submit"
          name="intent"
          value={`up:${image.key}`}
          formNoValidate
          className="secondary"
          disabled={busy || index === 0}
        >
          w górę{which}
        </button>
        <button
          type="submit"
          name="intent"
          value={`down:${image.key}`}
          formNoValidate
          className="secondary"
          disabled={busy || index === count - 1}
        >
          w dół{which}
        </button>
        <button
          type="submit"
          name="intent"
          value={`cover:${image.key}`}
          formNoValidate
          className="secondary"
          disabled={busy || index === 0}
        >
          na okładkę{which}
        </button>
        <button
          type="submit"
          name="intent"
          value={`remove:${image.key}`}
          formNoValidate
          className="secondary"
          disabled={busy}
        >
          usuń{which}
        </button>
      </span>
    </li>
  );
}
