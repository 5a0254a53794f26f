import type { LoaderFunctionArgs } from "@remix-run/node";
import { orUnavailable } from "~/http/unavailable.server";
import { siteOrigin } from "~/services/config.server";
import { publicTextResponse } from "~/http/public-text.server";
import { sitemap } from "~/features/seo/sitemap.server";

/** Every public page, article and album, for search engines. */
export async function loader({ request }: LoaderFunctionArgs) {
  return orUnavailable(async () =>
    publicTextResponse(request, await sitemap(siteOrigin(request)), "application/xml; charset=utf-8"),
  );
}
