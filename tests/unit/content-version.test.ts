// The content version tells page caches of every instance that public
// content changed: each save or delete moves it on, this process sees its
// own writes at once and another's within CONTENT_CHECK_MS.
import sharp from "sharp";
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { createArticle, deleteArticle, updateArticle } from "~/features/articles/article-writes.server";
import { deleteGallery } from "~/features/galleries/galleries.server";
import {
  CONTENT_CHECK_MS,
  contentChanged,
  currentContentVersion,
  forgetContentVersion,
} from "~/services/content-version.server";
import { db } from "~/services/db.server";
import { contentVersion } from "~/services/schema";
import { insertGallery } from "../fixtures";
import { resetDatabase } from "../helpers";

beforeEach(async () => {
  await resetDatabase();
  forgetContentVersion();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const jpeg = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: "#abc" } })
    .jpeg()
    .toBuffer();

it("starts at 0 and moves on with every save and delete of an article or album, seen at once here", async () => {
  expect(await currentContentVersion()).toBe(0);
  const created = await createArticle({
    header: "A",
    text: "B",
    date: "2025-01-02",
    image: { input: await jpeg(), name: "a.jpg" },
  });
  expect(created.ok).toBe(true);
  const id = created.ok ? created.id : "";
  expect(await currentContentVersion()).toBe(1);
  expect((await updateArticle({ id, header: "A2", text: "B2", date: "" })).ok).toBe(true);
  expect(await currentContentVersion()).toBe(2);
  expect((await deleteArticle({ id })).ok).toBe(true);
  expect(await currentContentVersion()).toBe(3);
  await insertGallery({ title: "Album" });
  expect(await deleteGallery({ title: "Album" })).toBe(true);
  expect(await currentContentVersion()).toBe(4);
});

it("does not move on when nothing changed", async () => {
  await currentContentVersion();
  expect((await updateArticle({ id: "404", header: "A", text: "B", date: "" })).ok).toBe(false);
  expect(await deleteGallery({ title: "Nie ma" })).toBe(false);
  forgetContentVersion();
  expect(await currentContentVersion()).toBe(0);
});

it("sees another instance's change within a second, and asks the database at most once a second", async () => {
  await contentChanged();
  expect(await currentContentVersion()).toBe(1);
  // Another instance bumps the shared row.
  await (
    await db()
  )
    .update(contentVersion)
    .set({ version: sql`${contentVersion.version} + 1` })
    .where(eq(contentVersion.id, 1));
  const now = Date.now();
  vi.spyOn(Date, "now").mockReturnValue(now + CONTENT_CHECK_MS - 100);
  expect(await currentContentVersion()).toBe(1);
  vi.spyOn(Date, "now").mockReturnValue(now + CONTENT_CHECK_MS + 1);
  expect(await currentContentVersion()).toBe(2);
});

it("follows the database down too (a restored backup), since readers compare for equality", async () => {
  await contentChanged();
  await contentChanged();
  await (await db()).update(contentVersion).set({ version: 1 }).where(eq(contentVersion.id, 1));
  vi.spyOn(Date, "now").mockReturnValue(Date.now() + CONTENT_CHECK_MS + 1);
  expect(await currentContentVersion()).toBe(1);
});
