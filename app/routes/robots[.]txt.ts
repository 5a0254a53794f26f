import type { LoaderFunctionArgs } from "@remix-run/node";
import { siteOrigin } from "~/config.server";
import { publicTextResponse, robotsTxt } from "~/feeds.server";

export function loader({ request }: LoaderFunctionArgs) {
  return publicTextResponse(request, robotsTxt(siteOrigin(request)), "text/plain; charset=utf-8");
}
