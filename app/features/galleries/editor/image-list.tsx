// The album's photos in order, each with its description field and its
// buttons (plain form posts). The album script (album-script.ts) adds a drag
// handle to each row and builds rows for photos it sends in the same shape
// (album-dom.ts: keep the two in step).
import type { ReactNode } from "react";
import { ALT_MAX } from "~/features/galleries/constants";

/** What the editor's list shows of a photo. */
export interface ListImage {
  key: string;
  name: string;
  thumb: string;
  alt: string;
}

export function ImageList({ items }: { items: ListImage[] }) {
  const heading = <h2 id="gallery-images-heading">Kolejność zdjęć ({items.length})</h2>;
  if (items.length === 0) {
    return (
      <div className="editor-images-block">
        {heading}
        <p className="empty">Nie ma żadnych zdjęć do wyświetlenia.</p>
      </div>
    );
  }
  return (
    <div className="editor-images-block">
      {heading}
      <p className="field-note" id="alt-help">
        Opis zdjęcia odczyta osobom niewidomym czytnik ekranu. Gdy pole zostanie puste, zdjęcie opisze jego numer i
        tytuł galerii.
      </p>
      <ol className="editor-images" aria-labelledby="gallery-images-heading">
        {items.map((image, index) => (
          <Row key={image.key} image={image} index={index} count={items.length} />
        ))}
      </ol>
    </div>
  );
}

function Row({ image, index, count }: { image: ListImage; index: number; count: number }) {
  const which = <span className="visually-hidden">: {image.name}</span>;
  return (
    <li className="editor-image" data-key={image.key}>
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
        <RowButton intent={`up:${image.key}`} disabled={index === 0}>
          w górę{which}
        </RowButton>
        <RowButton intent={`down:${image.key}`} disabled={index === count - 1}>
          w dół{which}
        </RowButton>
        <RowButton intent={`cover:${image.key}`} disabled={index === 0}>
          na okładkę{which}
        </RowButton>
        <RowButton intent={`remove:${image.key}`}>usuń{which}</RowButton>
      </span>
    </li>
  );
}

/** A row's button: it posts the whole form with its intent, as every button of the editor does. */
function RowButton({
  intent,
  disabled = false,
  children,
}: {
  intent: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button type="submit" name="intent" value={intent} formNoValidate className="secondary" disabled={disabled}>
      {children}
    </button>
  );
}
