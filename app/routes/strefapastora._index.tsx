import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { PastorBar } from "~/components/pastor";
import { DEVICES_PATH, LOGIN_PATH, PASTOR_ARTICLES_PATH, PASTOR_GALLERIES_PATH } from "~/lib/paths";

export async function loader({ request }: LoaderFunctionArgs) {
  // The panel home alone sends strangers to the login page (the original site's rule).
  const user = await requireUser(request, { redirectTo: LOGIN_PATH });
  return data({ email: user.email, csrf: user.csrf }, { headers: { "Cache-Control": "no-store" } });
}

export default function PastorHome() {
  const { email } = useLoaderData<typeof loader>();
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <h1>Strefa pastora</h1>
      <ul className="pastor-links">
        <li>
          <Link to={PASTOR_ARTICLES_PATH}>lista artykułów</Link>
        </li>
        <li>
          <Link to={PASTOR_GALLERIES_PATH}>galeria zborowa</Link>
        </li>
        <li>
          <Link to={DEVICES_PATH}>zalogowane urządzenia</Link>
        </li>
      </ul>
    </section>
  );
}
