import fs from "node:fs";
import path from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LOGO_ICON_HREF, Logo } from "~/components/logo";

// The shapes of an SVG, attribute by attribute, whatever the attribute order.
function shapes(svg: string) {
  return [...svg.matchAll(/<(circle|path)\s([^>]*?)\/?>/g)].map(([, tag, attrs]) => ({
    tag,
    attrs: Object.fromEntries([...attrs.matchAll(/([\w-]+)=(["'])(.*?)\2/g)].map(([, k, , v]) => [k, v])),
  }));
}

const file = fs.readFileSync(path.join(process.cwd(), "public/logo.svg"), "utf8");

describe("the logo", () => {
  it("in the page header draws what public/logo.svg draws, hidden from screen readers", () => {
    const inline = renderToStaticMarkup(<Logo size={44} />);
    expect(shapes(file)).toHaveLength(3);
    expect(shapes(inline)).toEqual(shapes(file));
    expect(inline).toMatch(/^<svg viewBox="0 0 64 64" width="44" height="44" aria-hidden="true"/);
  });

  it("as the tab icon is the same drawing, a complete SVG document", () => {
    const prefix = "data:image/svg+xml,";
    expect(LOGO_ICON_HREF.startsWith(prefix)).toBe(true);
    const icon = decodeURIComponent(LOGO_ICON_HREF.slice(prefix.length));
    expect(icon).toMatch(/^<svg xmlns='http:\/\/www.w3.org\/2000\/svg' viewBox='0 0 64 64'>.*<\/svg>$/);
    // Nothing that ends an HTML attribute or starts a URL fragment.
    expect(LOGO_ICON_HREF).not.toMatch(/["#<>]/);
    expect(shapes(icon)).toEqual(shapes(file));
  });
});
