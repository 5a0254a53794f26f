import type { LoaderFunctionArgs } from "@remix-run/node";
import { orUnavailable } from "~/http/unavailable.server";
import { siteOrigin } from "~/services/config.server";
import { publicTextResponse } from "~/http/public-text.server";
import { rssFeed } from "~/features/seo/feed.server";

/** RSS 2.0 of the newest news. */
export async function loader({ request }: LoaderFunctionArgs) {
  return orUnavailable(async () =>
    publicTextResponse(request, await rssFeed(siteOrigin(request)), "application/rss+xml; charset=utf-8"),
  );
}
