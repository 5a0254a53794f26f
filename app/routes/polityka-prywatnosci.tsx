import type { MetaFunction } from "@remix-run/node";
import { privacyPolicy } from "~/content/church";
import { HOME_PATH } from "~/lib/paths";
import { seo } from "~/features/seo/seo";

export const meta: MetaFunction = (args) => seo(args, { page: "Polityka prywatności" });

export default function PrivacyPolicy() {
  return (
    <div className="page">
      <h1>{privacyPolicy.heading}</h1>
      {privacyPolicy.sections.map((s) => (
        <section key={s.title}>
          <h2>{s.title}</h2>
          <p>{s.text}</p>
        </section>
      ))}
      <p>
        <a className="button" href={HOME_PATH}>
          Powrót na stronę główną
        </a>
      </p>
    </div>
  );
}
