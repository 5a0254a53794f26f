import { articles, galleries, galleryImages, historyPhotos } from "~/services/schema";
import { clock } from "~/services/clock.server";
import { db } from "~/services/db.server";

let nextId = 1_700_000_000_000;

export async function insertArticle(values: Partial<typeof articles.$inferInsert> = {}) {
  const row = {
    id: String(nextId++),
    header: "Nagłówek",
    text: "Treść",
    date: "2025-01-01",
    imageKey: "aktualnosci/a.jpg",
    imageWidth: 1600,
    imageHeight: 1067,
    // Published, by the clock the public queries compare with.
    publishAt: clock.now(),
    ...values,
  };
  await (await db()).insert(articles).values(row);
  return row;
}

export async function insertGallery(
  values: Partial<typeof galleries.$inferInsert> & { title: string },
  images: { name: string; key: string }[] = [],
) {
  const d = await db();
  const [g] = await d
    .insert(galleries)
    .values({ description: "", date: "2025-01-01", publishAt: clock.now(), ...values })
    .returning({ id: galleries.id });
  if (images.length) {
    await d.insert(galleryImages).values(
      images.map((img, i) => ({
        galleryId: g.id,
        position: i,
        name: img.name,
        imageKey: img.key,
        width: 800,
        height: 600,
      })),
    );
  }
  return g.id;
}

export async function insertHistoryPhoto(
  name: string,
  key: string,
  position = 0,
  size: { width: number; height: number } = { width: 1200, height: 900 },
) {
  await (await db()).insert(historyPhotos).values({ name, imageKey: key, ...size, position });
}
