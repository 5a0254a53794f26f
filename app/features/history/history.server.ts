import { asc } from "drizzle-orm";
import { historyPhotos } from "~/services/schema";
import { withDb } from "~/services/db.server";
import { type ImageView, imageView } from "~/services/images.server";

export async function listHistoryPhotos(): Promise<(ImageView & { name: string })[]> {
  const rows = await withDb((db) =>
    db
      .select({
        name: historyPhotos.name,
        key: historyPhotos.imageKey,
        width: historyPhotos.width,
        height: historyPhotos.height,
      })
      .from(historyPhotos)
      .orderBy(asc(historyPhotos.position), asc(historyPhotos.id)),
  );
  return rows.map((r) => ({ name: r.name, ...imageView(r) }));
}
