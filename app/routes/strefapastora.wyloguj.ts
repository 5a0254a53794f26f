import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireUser } from "~/features/auth/auth.server";
import { destroySession } from "~/features/auth/session.server";
import { HOME_PATH, PANEL_PATH } from "~/lib/paths";

// Signing out is a POST with the session's token (PastorBar); a GET changes nothing.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect(PANEL_PATH);
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  return redirect(HOME_PATH, { headers: { "Set-Cookie": await destroySession(request.headers.get("Cookie")) } });
}
