import { BackLink } from "~/components/layout";
import { PhotoGrid } from "~/features/galleries/photo-grid";
import type { ImageView } from "~/lib/image-variants";
import { displayDate } from "~/lib/text";

export interface GalleryViewData {
  title: string;
  description: string;
  date: string;
  images: (ImageView & { name: string; alt: string })[];
}

/** An album as visitors see it; the pastor's preview shows the same. */
export function GalleryView({ gallery, backTo }: { gallery: GalleryViewData; backTo: string }) {
  return (
    <div className="page">
      <BackLink to={backTo} />
      <h1>{gallery.title}</h1>
      {gallery.description ? <p>{gallery.description}</p> : null}
      <p className="date">{displayDate(gallery.date)}</p>
      <PhotoGrid title={gallery.title} images={gallery.images} />
    </div>
  );
}
