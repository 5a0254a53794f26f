import type { MetaFunction } from "@remix-run/node";
import { church } from "~/content/church";
import { pageTitle, seo } from "~/features/seo/seo";

export const meta: MetaFunction = (args) => seo(args, { title: pageTitle("Służby") });

export default function Ministries() {
  return (
    <div className="page">
      <h1>Służby</h1>
      <ul className="cards ministries">
        {church.ministries.map((m) => (
          <li key={m.role} className="card">
            <h2>{m.role}</h2>
            <ul>
              {m.people.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
            {m.description ? <p>{m.description}</p> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
