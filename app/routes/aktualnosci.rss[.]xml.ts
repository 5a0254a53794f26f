import type { LoaderFunctionArgs } from "@remix-run/node";
import { orUnavailable } from "~/http/unavailable.server";
import { siteOrigin } from "~/services/config.server";
import { publicTextResponse, rssFeed } from "~/features/seo/feeds.server";

/** RSS 2.0 of the newest news. */
export async function loader({ request }: LoaderFunctionArgs) {
  return orUnavailable(async () =>
    publicTextResponse(request, await rssFeed(siteOrigin(request)), "application/rss+xml; charset=utf-8"),
  );
}
