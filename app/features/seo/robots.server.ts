import { absoluteUrl } from "~/features/seo/seo";
import { FILES_PATH, PANEL_PATH, SITEMAP_PATH } from "~/lib/paths";

/**
 * Crawlers stay out of the pastor area and the uploaded files, except the
 * sharing JPEGs, which social sites fetch for link previews (the longer,
 * more specific rule wins); the sitemap is named.
 */
export function robotsTxt(origin: string): string {
  return [
    "User-agent: *",
    `Disallow: ${PANEL_PATH}`,
    `Disallow: ${FILES_PATH}/`,
    `Allow: ${FILES_PATH}/*.jpeg$`,
    "Allow: /",
    "",
    `Sitemap: ${absoluteUrl(origin, SITEMAP_PATH)}`,
    "",
  ].join("\n");
}
