// The Google Calendar's old address: it is shown below the site's own
// calendar now, after a click on 'pokaż kalendarz Google' (/kalendarz), and
// links to the old page keep working.
import { redirect } from "@remix-run/node";
import { calendarWithGooglePath } from "~/lib/paths";

export function loader() {
  return redirect(calendarWithGooglePath(), 301);
}
