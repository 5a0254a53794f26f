import type { ImageView } from "~/lib/image-variants";

// Displayed widths, from app/styles/app.css (1 rem = 16 px), so that the
// browser picks the variant that fits: the page is 72 rem at most with 1 rem
// padding (content ≤ 1120 px), the article 54 rem (content ≤ 832 px).
// On a 375 px phone at DPR 2 a card is 309 px (the 640 px file) and an album
// cell 168 px (the 360 px file).

/** A card (.cards: 1, 2 or 3 a row, 1 rem gaps; the card's padding and border take 34 px). */
export const CARD_SIZES =
  "(min-width: 1152px) 329px, (min-width: 1050px) calc(33.3vw - 55px), (min-width: 700px) calc(50vw - 58px), calc(100vw - 66px)";

/** A cell of .photo-grid (album photos, history photos): 2 a row, 4 from 1050 px, 0.5 rem gaps. */
export const GRID_SIZES = "(min-width: 1152px) 274px, (min-width: 1050px) calc(25vw - 14px), calc(50vw - 20px)";

/** The photo at the top of an article or testimony (.article-image, full width of .article). */
export const ARTICLE_SIZES = "(min-width: 864px) 832px, calc(100vw - 32px)";

/**
 * A responsive photo: AVIF variants for browsers that read them, WebP for
 * the rest. Images above the fold load eagerly (the first one, likely the
 * largest paint, with high priority); everything else lazily and decoded off
 * the main thread, and with `low` at low priority even when it is on the
 * screen. Width and height reserve space. An external image (see
 * isExternalImage) has no variants: a plain src, no srcset.
 */
export function Photo({
  image,
  alt,
  sizes,
  eager = false,
  priority = false,
  low = false,
  className,
}: {
  image: ImageView;
  alt: string;
  sizes: string;
  eager?: boolean;
  priority?: boolean;
  low?: boolean;
  className?: string;
}) {
  const img = (
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
      {...(priority ? { fetchpriority: "high" } : low ? { fetchpriority: "low" } : {})}
      decoding={eager || priority ? "auto" : "async"}
    />
  );
  if (!image.avifSrcSet) return img;
  // <picture> is display: contents (app.css), so the <img> lays out as before.
  return (
    <picture>
      <source type="image/avif" srcSet={image.avifSrcSet} sizes={sizes} />
      {img}
    </picture>
  );
}

/**
 * The photo at the top of a card in a list of articles or albums: one, two
 * or three cards a row as the screen widens. The first card's photo is
 * likely the largest paint, so it loads with high priority; the others
 * lazily and at low priority. On a phone the second card's photo is on
 * the first screen too, and a browser raises an image on the screen to
 * high priority: on a slow connection it then shared the bandwidth with
 * the first photo (a grainy phone photo's is 25 KiB) and the first painted
 * later; kept low, it lets the first go ahead.
 */
export function CardPhoto({ image, first }: { image: ImageView; first: boolean }) {
  return <Photo className="card-image" image={image} alt="" sizes={CARD_SIZES} priority={first} low={!first} />;
}
