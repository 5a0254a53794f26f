import { redirect } from "@remix-run/node";

// Any path the site does not know leads home, as on the original site.
export function loader() {
  return redirect("/");
}

export function action() {
  return redirect("/");
}
