import type { LoaderFunctionArgs } from "@remix-run/node";
import { siteOrigin } from "~/services/config.server";
import { publicTextResponse, robotsTxt } from "~/features/seo/feeds.server";

export function loader({ request }: LoaderFunctionArgs) {
  return publicTextResponse(request, robotsTxt(siteOrigin(request)), "text/plain; charset=utf-8");
}
