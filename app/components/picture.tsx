import type { ImageView } from "~/lib/image-variants";

/**
 * A responsive photo. Images above the fold load eagerly (the first one,
 * likely the largest paint, with high priority); everything else lazily and
 * decoded off the main thread. Width and height reserve space. An external
 * image (see isExternalImage) has no variants: a plain src, no srcset.
 */
export function Photo({
  image,
  alt,
  sizes,
  eager = false,
  priority = false,
  className,
}: {
  image: ImageView;
  alt: string;
  sizes: string;
  eager?: boolean;
  priority?: boolean;
  className?: string;
}) {
  return (
    <img
      className={className}
      src={image.src}
      srcSet={image.srcSet || undefined}
      sizes={image.srcSet ? sizes : undefined}
      width={image.width}
      height={image.height}
      alt={alt}
      loading={eager || priority ? "eager" : "lazy"}
      // Lower case: React 18 passes it through as an attribute.
      {...(priority ? { fetchpriority: "high" } : {})}
      decoding={eager || priority ? "auto" : "async"}
    />
  );
}

/**
 * The photo at the top of a card in a list of articles or albums: one, two
 * or three cards a row as the screen widens; the first card's photo is
 * likely the largest paint, so it loads with high priority.
 */
export function CardPhoto({ image, first }: { image: ImageView; first: boolean }) {
  return (
    <Photo
      className="card-image"
      image={image}
      alt=""
      sizes="(min-width: 1050px) 33vw, (min-width: 700px) 50vw, 100vw"
      priority={first}
    />
  );
}
