// The embedded database (PGlite) runs the same migrations and queries as Postgres.
import { expect, it } from "vitest";

process.env.DATABASE_URL = "memory:";

it("runs migrations and the public queries on PGlite", async () => {
  const { closeDb } = await import("~/services/db.server");
  await closeDb(); // drop any connection made before the variable changed
  const { insertArticle, insertGallery } = await import("../fixtures");
  const { listArticleCards, getArticle } = await import("~/features/articles/articles.server");
  const { listGalleryCards, getGalleryByTitle } = await import("~/features/galleries/galleries.server");
  const { config } = await import("~/services/config.server");
  expect(config().database.kind).toBe("pglite");

  const a = await insertArticle({ header: "Z PGlite", text: "x".repeat(400) });
  await insertGallery({ title: "Album" }, [{ name: "1.jpg", key: "galeria/1.jpg" }]);
  expect((await listArticleCards())[0]).toMatchObject({ header: "Z PGlite" });
  expect((await getArticle(a.id))?.text).toHaveLength(400);
  expect((await listGalleryCards())[0].cover?.full).toBe("/pliki/galeria/1.jpg");
  expect((await getGalleryByTitle("Album"))?.images).toHaveLength(1);
});
