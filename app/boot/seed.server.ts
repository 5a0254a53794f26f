import { eq } from "drizzle-orm";
import { articles, galleries, galleryImages, historyPhotos } from "~/services/schema";
import { clock } from "~/services/clock.server";
import { contentChanged } from "~/services/content-version.server";
import type { Db } from "~/services/db.server";
import { storeProcessedImage } from "~/services/images.server";
import { type DemoPhotoSpec, readDemoPhoto } from "~/boot/demo-photos.server";

const ARTICLE_SIZE = { width: 1600, height: 1067 };

const articlePhoto = (a: { hue: number }): DemoPhotoSpec => ({ hue: a.hue, variant: 0, ...ARTICLE_SIZE });
const galleryPhoto = (g: { hue: number }, i: number): DemoPhotoSpec => ({
  hue: g.hue + i * 17,
  variant: i,
  ...ARTICLE_SIZE,
});
const historyPhoto = (i: number): DemoPhotoSpec => ({ hue: 20 + i * 50, variant: i + 1, width: 1200, height: 900 });
const HISTORY_PHOTOS = 3;

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

/** Every picture the demo content shows (`npm run demo:photos` encodes them into demo/photos/). */
export function demoPhotoSpecs(): DemoPhotoSpec[] {
  return [
    ...demoArticles.map(articlePhoto),
    ...demoGalleries.flatMap((g) => Array.from({ length: g.count }, (_, i) => galleryPhoto(g, i))),
    ...Array.from({ length: HISTORY_PHOTOS }, (_, i) => historyPhoto(i)),
  ];
}

/** Adds a few articles, two albums and history photos; what exists already is kept. */
export async function seedDemoContent(db: Db) {
  for (const a of demoArticles) {
    const [exists] = await db.select({ id: articles.id }).from(articles).where(eq(articles.id, a.id));
    if (exists) continue;
    const image = await storeProcessedImage(await readDemoPhoto(articlePhoto(a)), `${a.header}.jpg`, "aktualnosci");
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
      const image = await storeProcessedImage(await readDemoPhoto(galleryPhoto(g, i)), name, "galeria");
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
  for (let i = 0; i < HISTORY_PHOTOS; i++) {
    const name = `historia-${i + 1}.jpg`;
    const image = await storeProcessedImage(await readDemoPhoto(historyPhoto(i)), name, "historia");
    await db
      .insert(historyPhotos)
      .values({ name, imageKey: image.key, width: image.width, height: image.height, position: i });
  }
}
