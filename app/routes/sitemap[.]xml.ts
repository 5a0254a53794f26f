import type { LoaderFunctionArgs } from "@remix-run/node";
import { orUnavailable } from "~/http/unavailable.server";
import { siteOrigin } from "~/services/config.server";
import { publicTextResponse, sitemap } from "~/features/seo/feeds.server";

/** Every public page, article and album, for search engines. */
export async function loader({ request }: LoaderFunctionArgs) {
  return orUnavailable(async () =>
    publicTextResponse(request, await sitemap(siteOrigin(request)), "application/xml; charset=utf-8"),
  );
}
