import { eq } from "drizzle-orm";
import sharp from "sharp";
import { articles, galleries, galleryImages, historyPhotos } from "~/services/schema";
import { clock } from "~/services/clock.server";
import { contentChanged } from "~/services/content-version.server";
import type { Db } from "~/services/db.server";
import { storeImage } from "~/services/images.server";

/**
 * A small picture drawn from shapes (no third-party images, so no licence
 * questions): a sky gradient, a sun and hills in the given colours.
 */
export async function demoPicture(hue: number, variant = 0, width = 1600, height = 1067): Promise<Buffer> {
  const sky = `hsl(${hue},70%,75%)`;
  const skyLow = `hsl(${(hue + 30) % 360},80%,90%)`;
  const hill = `hsl(${(hue + 120) % 360},35%,${40 + (variant % 3) * 8}%)`;
  const hill2 = `hsl(${(hue + 140) % 360},40%,${28 + (variant % 2) * 6}%)`;
  const sunX = 0.2 + ((variant * 0.23) % 0.6);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky}"/><stop offset="1" stop-color="${skyLow}"/></linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#s)"/>
  <circle cx="${width * sunX}" cy="${height * 0.3}" r="${height * 0.11}" fill="hsl(45,100%,70%)"/>
  <path d="M0 ${height * 0.7} Q ${width * 0.3} ${height * 0.45} ${width * 0.6} ${height * 0.68} T ${width} ${height * 0.6} V ${height} H 0 Z" fill="${hill}"/>
  <path d="M0 ${height * 0.85} Q ${width * 0.4} ${height * 0.7} ${width} ${height * 0.88} V ${height} H 0 Z" fill="${hill2}"/>
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

const demoArticles = [
  {
    id: "1730000000000",
    header: "Nabożeństwo dziękczynne",
    date: "2024-10-27",
    hue: 30,
    text: "W niedzielę zapraszamy na nabożeństwo dziękczynne. Po nabożeństwie wspólny obiad – prosimy o przyniesienie ciasta!\n\nSzczegóły w ogłoszeniach: https://example.org/ogloszenia.",
  },
  {
    id: "1735000000000",
    header: "Obóz młodzieżowy – zapisy",
    date: "2025-01-15",
    hue: 200,
    text: "Ruszyły zapisy na letni obóz młodzieżowy w górach. Przez tydzień będziemy razem czytać Biblię, modlić się, wędrować i odpoczywać.\n\nZapisy u liderów grup młodzieżowych do końca maja. Koszt obozu obejmuje zakwaterowanie, wyżywienie i ubezpieczenie.",
  },
  {
    id: "1740000000000",
    header: "Chrzest wiary",
    date: "2025-06-08",
    hue: 180,
    text: "Z radością informujemy, że w niedzielę Zesłania Ducha Świętego odbędzie się uroczystość chrztu wiary. Wszystkich serdecznie zapraszamy!",
  },
  {
    id: "1600000000000",
    header: "Spotkanie modlitewne",
    date: "12 września 2020, sobota",
    hue: 280,
    text: "Zapraszamy na wieczór modlitwy za nasze miasto i rodziny.",
  },
];

const demoGalleries = [
  {
    title: "Piknik zborowy 2025",
    description: "Wspólne popołudnie na łące za kampusem.",
    date: "2025-06-21",
    hue: 100,
    count: 5,
  },
  { title: "Koncert uwielbienia", description: "Wieczór pieśni i modlitwy.", date: "2025-03-09", hue: 260, count: 3 },
];

/** Adds a few articles, two albums and history photos; what exists already is kept. */
export async function seedDemoContent(db: Db) {
  for (const a of demoArticles) {
    const [exists] = await db.select({ id: articles.id }).from(articles).where(eq(articles.id, a.id));
    if (exists) continue;
    const image = await storeImage(await demoPicture(a.hue), `${a.header}.jpg`, "aktualnosci");
    await db
      .insert(articles)
      .values({
        id: a.id,
        header: a.header,
        text: a.text,
        date: a.date,
        imageKey: image.key,
        imageWidth: image.width,
        imageHeight: image.height,
        publishAt: clock.now(),
      })
      .onConflictDoNothing();
  }
  for (const g of demoGalleries) {
    const [gallery] = await db
      .insert(galleries)
      .values({ title: g.title, description: g.description, date: g.date, publishAt: clock.now() })
      .onConflictDoNothing()
      .returning({ id: galleries.id });
    if (!gallery) continue; // an album with this title exists already
    for (let i = 0; i < g.count; i++) {
      const name = `zdjecie-${i + 1}.jpg`;
      const image = await storeImage(await demoPicture(g.hue + i * 17, i), name, "galeria");
      await db.insert(galleryImages).values({
        galleryId: gallery.id,
        position: i,
        name,
        imageKey: image.key,
        width: image.width,
        height: image.height,
      });
    }
  }
  const [anyPhoto] = await db.select({ id: historyPhotos.id }).from(historyPhotos).limit(1);
  if (!anyPhoto) await seedHistoryPhotos(db);
  // `npm run seed` beside a running server: its pages show the demo content.
  await contentChanged(db);
}

async function seedHistoryPhotos(db: Db) {
  for (let i = 0; i < 3; i++) {
    const name = `historia-${i + 1}.jpg`;
    const image = await storeImage(await demoPicture(20 + i * 50, i + 1, 1200, 900), name, "historia");
    await db
      .insert(historyPhotos)
      .values({ name, imageKey: image.key, width: image.width, height: image.height, position: i });
  }
}
