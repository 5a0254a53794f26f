import type { MetaFunction } from "@remix-run/node";
import { privacyPolicy } from "~/content/church";
import { HOME_PATH } from "~/lib/paths";
import { seo } from "~/features/seo/seo";
import { useSiteNames } from "~/features/seo/json-ld";

export const meta: MetaFunction = (args) => seo(args, { page: "Polityka prywatności" });

export default function PrivacyPolicy() {
  const policy = privacyPolicy(useSiteNames());
  return (
    <div className="page">
      <h1>{policy.heading}</h1>
      {policy.sections.map((s) => (
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
