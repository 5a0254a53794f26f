import { redirect } from "@remix-run/node";
import { acceptPolicyCookie } from "~/http/cookie-notice.server";
import { HOME_PATH } from "~/lib/paths";

/** 'Akceptuję' without JavaScript: remember acceptance and go back home. */
export async function action() {
  return redirect(HOME_PATH, { headers: { "Set-Cookie": await acceptPolicyCookie.serialize("true") } });
}

export function loader() {
  return redirect(HOME_PATH);
}
