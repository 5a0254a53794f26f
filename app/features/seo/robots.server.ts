import { absoluteUrl } from "~/features/seo/seo";

/**
 * Crawlers stay out of the pastor area and the uploaded files, except the
 * sharing JPEGs, which social sites fetch for link previews (the longer,
 * more specific rule wins); the sitemap is named.
 */
export function robotsTxt(origin: string): string {
  return [
    "User-agent: *",
    "Disallow: /strefapastora",
    "Disallow: /pliki/",
    "Allow: /pliki/*.jpeg$",
    "Allow: /",
    "",
    `Sitemap: ${absoluteUrl(origin, "/sitemap.xml")}`,
    "",
  ].join("\n");
}
