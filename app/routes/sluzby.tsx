import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { listMinistries } from "~/features/church/about.server";
import { seo } from "~/features/seo/seo";

export const meta: MetaFunction = (args) => seo(args, { page: "Służby" });

export async function loader() {
  return { ministries: await listMinistries() };
}

export default function Ministries() {
  const { ministries } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <h1>Służby</h1>
      <ul className="cards ministries">
        {ministries.map((m) => (
          <li key={m.id} className="card">
            <h2>{m.name}</h2>
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
