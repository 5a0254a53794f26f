import type { ImageView } from "~/lib/image-variants";

/**
 * A responsive photo. Images above the fold load eagerly; everything else
 * lazily and decoded off the main thread. Width and height reserve space.
 */
export function Photo({
  image,
  alt,
  sizes,
  eager = false,
  className,
}: {
  image: ImageView;
  alt: string;
  sizes: string;
  eager?: boolean;
  className?: string;
}) {
  return (
    <img
      className={className}
      src={image.src}
      srcSet={image.srcSet}
      sizes={sizes}
      width={image.width}
      height={image.height}
      alt={alt}
      loading={eager ? "eager" : "lazy"}
      decoding={eager ? "auto" : "async"}
    />
  );
}
