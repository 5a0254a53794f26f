import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GRID_SIZES, Photo } from "~/components/picture";
import { listTestimonies } from "~/features/church/about.server";
import { readFacts } from "~/features/church/facts.server";
import { listHistoryPhotos } from "~/features/about-photos/about-photos.server";
import { testimonyPath } from "~/lib/paths";
import { seo } from "~/features/seo/seo";

export async function loader() {
  const [photos, { facts }, testimonies] = await Promise.all([listHistoryPhotos(), readFacts(), listTestimonies()]);
  return { photos, history: facts.history, creed: facts.creed, testimonies };
}

export const meta: MetaFunction = (args) => seo(args, { page: "O nas" });

export default function AboutUs() {
  const { photos, history, creed, testimonies } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <h1>O nas</h1>
      <section aria-labelledby="historia">
        <h2 id="historia">Historia zboru</h2>
        {history.map((p) => (
          <p key={p}>{p}</p>
        ))}
      </section>
      <section aria-labelledby="wyznanie">
        <h2 id="wyznanie">Wyznanie wiary Kościoła Zielonoświątkowego w RP</h2>
        <ol className="creed">
          {creed.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="zdjecia">
        <h2 id="zdjecia">Zdjęcia</h2>
        {photos.length === 0 ? (
          <p>Nie ma żadnych zdjęć do wyświetlenia.</p>
        ) : (
          <ul className="photo-grid">
            {photos.map((p) => (
              <li key={p.full}>
                <a href={p.full} target="_blank" rel="noopener noreferrer">
                  <Photo image={p} alt={p.name} sizes={GRID_SIZES} />
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="swiadectwa">
        <h2 id="swiadectwa">Świadectwa</h2>
        <ul className="cards">
          {testimonies.map((t) => (
            <li key={t.id} className="card">
              <h3>{t.title}</h3>
              <p>{t.text.split("\n")[0]}</p>
              <a className="button" href={testimonyPath(t.id)} aria-label={`czytaj więcej: ${t.title}`}>
                czytaj więcej...
              </a>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
