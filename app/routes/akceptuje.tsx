import { redirect } from "@remix-run/node";
import { acceptPolicyCookie } from "~/http/cookie-notice.server";

/** 'Akceptuję' without JavaScript: remember acceptance and go back home. */
export async function action() {
  return redirect("/", { headers: { "Set-Cookie": await acceptPolicyCookie.serialize("true") } });
}

export function loader() {
  return redirect("/");
}
