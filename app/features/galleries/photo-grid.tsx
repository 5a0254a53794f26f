import { GRID_SIZES, Photo } from "~/components/picture";
import { defaultPhotoAlt } from "~/features/galleries/constants";
import type { ImageView } from "~/lib/image-variants";

/**
 * An album's photos as visitors see them (the pastor's album page shows the
 * same grid): each opens the full photo; the first row loads at once.
 */
export function PhotoGrid({
  title,
  images,
}: {
  title: string;
  images: (ImageView & { full: string; alt: string | null })[];
}) {
  if (images.length === 0) return <p className="empty">Nie ma żadnych zdjęć do wyświetlenia.</p>;
  return (
    <ul className="photo-grid">
      {images.map((img, i) => (
        <li key={img.full}>
          <a href={img.full} target="_blank" rel="noopener noreferrer">
            <Photo image={img} alt={img.alt || defaultPhotoAlt(title, i + 1)} sizes={GRID_SIZES} eager={i < 2} />
          </a>
        </li>
      ))}
    </ul>
  );
}
