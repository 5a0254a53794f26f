import { useRouteLoaderData } from "@remix-run/react";
import { type RootData, jsonLdText } from "~/lib/seo";

/** Structured data for search engines, rendered with the page (public pages run no scripts). */
export function JsonLd({ data }: { data: unknown }) {
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(data) }} />;
}

/** The origin absolute addresses are built on (from the root loader). */
export function useOrigin(): string {
  return (useRouteLoaderData("root") as RootData | undefined)?.origin ?? "";
}
