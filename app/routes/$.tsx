import { redirect } from "@remix-run/node";
import { HOME_PATH } from "~/lib/paths";

// Any path the site does not know leads home, as on the original site.
export function loader() {
  return redirect(HOME_PATH);
}

export function action() {
  return redirect(HOME_PATH);
}
