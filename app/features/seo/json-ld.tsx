import { useRouteLoaderData } from "@remix-run/react";
import { useNonce } from "~/lib/document-context";
import { sampleSiteNames } from "~/content/site";
import { type RootData, jsonLdText } from "~/features/seo/seo";
import type { SiteNames } from "~/features/church/facts";

/** Structured data for search engines, rendered with the page (public pages run no scripts). */
export function JsonLd({ data }: { data: unknown }) {
  // A data block runs nothing, but the nonce keeps "every script tag is ours" checkable.
  const nonce = useNonce();
  return <script type="application/ld+json" nonce={nonce} dangerouslySetInnerHTML={{ __html: jsonLdText(data) }} />;
}

/** The origin absolute addresses are built on (from the root loader). */
export function useOrigin(): string {
  return (useRouteLoaderData("root") as RootData | undefined)?.origin ?? "";
}

/** The congregation's names for the header and footer (from the root loader; the samples before it ran). */
export function useSiteNames(): SiteNames {
  return (useRouteLoaderData("root") as RootData | undefined)?.site ?? sampleSiteNames;
}
