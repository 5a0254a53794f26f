import type { LoaderFunctionArgs } from "@remix-run/node";
import { siteOrigin } from "~/services/config.server";
import { publicTextResponse } from "~/http/public-text.server";
import { robotsTxt } from "~/features/seo/robots.server";

export function loader({ request }: LoaderFunctionArgs) {
  return publicTextResponse(request, robotsTxt(siteOrigin(request)), "text/plain; charset=utf-8");
}
