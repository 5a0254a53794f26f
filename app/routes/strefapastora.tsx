import type { HeadersFunction } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import pastorStyles from "~/styles/pastor.css";
import type { RouteHandle } from "~/root";

// The pastor area's layout: React in the browser, its stylesheet, and never
// stored by a cache. It has no loader on purpose: Remix runs child loaders in
// parallel with a parent's, so each pastor loader and action checks the
// session itself (requireUser) instead of relying on a guard here.
export const handle: RouteHandle = { hydrate: true, styles: [pastorStyles] };

export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export default function PastorArea() {
  return <Outlet />;
}
