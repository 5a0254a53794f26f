import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CardPhoto } from "~/components/picture";
import type { ImageView } from "~/lib/image-variants";

const image: ImageView = {
  src: "/u/a-640.webp",
  srcSet: "/u/a-360.webp 360w, /u/a-640.webp 640w",
  avifSrcSet: "/u/a-360.avif 360w, /u/a-640.avif 640w",
  width: 1600,
  height: 1200,
  full: "/u/a.jpg",
};

/** The attributes of the one <img> in the markup. */
function imgAttributes(html: string): Record<string, string> {
  const tags = [...html.matchAll(/<img\s([^>]*?)\/?>/g)];
  expect(tags).toHaveLength(1);
  return Object.fromEntries([...tags[0][1].matchAll(/([\w-]+)="([^"]*)"/g)].map(([, k, v]) => [k, v]));
}

describe("a card's photo", () => {
  it("on the first card loads at once with high priority", () => {
    const img = imgAttributes(renderToStaticMarkup(<CardPhoto image={image} first />));
    expect(img).toMatchObject({ loading: "eager", fetchpriority: "high", decoding: "auto" });
  });

  it("on the other cards loads lazily at low priority, so it does not share the connection with the first", () => {
    const img = imgAttributes(renderToStaticMarkup(<CardPhoto image={image} first={false} />));
    expect(img).toMatchObject({ loading: "lazy", fetchpriority: "low", decoding: "async" });
  });

  it("offers AVIF first, with the same sizes as the WebP fallback", () => {
    const html = renderToStaticMarkup(<CardPhoto image={image} first />);
    expect(html).toMatch(/^<picture><source type="image\/avif" srcSet="[^"]+-360\.avif 360w/);
    expect(imgAttributes(html).sizes).toBe(/sizes="([^"]+)"/.exec(html)?.[1]);
  });
});
