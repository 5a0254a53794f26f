/**
 * The congregation's logo, in the page rather than fetched: on a first visit
 * over a slow connection a separate /logo.svg request (for the header or the
 * tab icon) would open a connection of its own ahead of the page's first
 * photo. public/logo.svg (kept for the structured data and older links)
 * holds the same drawing; tests/unit/logo.test.tsx keeps the two alike.
 */
const SHAPES =
  '<circle cx="32" cy="32" r="31" fill="#1f4e79"/>' +
  '<path d="M28 10h8v14h14v8H36v22h-8V32H14v-8h14z" fill="#fff"/>' +
  '<path d="M20 46c6-6 18-6 24 0" stroke="#f2b632" stroke-width="3" fill="none" stroke-linecap="round"/>';

/**
 * The tab icon as a data: address (an SVG needs no size of its own), with
 * single quotes and only the characters a URL cannot carry escaped.
 */
export const LOGO_ICON_HREF = `data:image/svg+xml,${`<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 64'>${SHAPES.replaceAll('"', "'")}</svg>`.replace(/[#%<>]/g, encodeURIComponent)}`;

/** The logo beside the church's name in the header: decorative, the name says it. */
export function Logo({ size }: { size: number }) {
  return (
    <svg
      viewBox="0 0 64 64"
      width={size}
      height={size}
      aria-hidden="true"
      focusable="false"
      dangerouslySetInnerHTML={{ __html: SHAPES }}
    />
  );
}
