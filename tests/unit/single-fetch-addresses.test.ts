// With single fetch Remix reads any address ending in ".data" as a data
// request. Album addresses carry free-text titles, so one that ends so must
// still open its page, in the public gallery and in the pastor area.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type ServerBuild, createRequestHandler } from "@remix-run/node";
import { beforeAll, expect, it } from "vitest";
import { editGalleryPath, galleryPath, pastorGalleryPath } from "~/lib/paths";
import { insertGallery } from "../fixtures";
import { ORIGIN, PASTOR, addPastor, signIn } from "../auth-helpers";
import { request, resetDatabase } from "../helpers";

const TITLE = "Wyniki.data";
let handle: (request: Request) => Promise<Response>;
let session: string;

beforeAll(async () => {
  const built = path.resolve("build/index.js");
  if (!fs.existsSync(built)) throw new Error("build/index.js missing: run `npm run build` first");
  const build = (await import(/* @vite-ignore */ pathToFileURL(built).href)) as ServerBuild;
  handle = createRequestHandler(build, "production");
  await resetDatabase();
  await addPastor();
  session = await signIn(PASTOR);
  await insertGallery({ title: TITLE }, [{ name: "1.jpg", key: "galeria/1.jpg" }]);
});

it("builds album addresses that are not data requests", () => {
  expect(galleryPath(TITLE)).toBe("/galeria/Wyniki%2Edata");
  expect(galleryPath("Obóz 2025")).toBe("/galeria/Ob%C3%B3z%202025");
});

it.each([
  ["public", galleryPath(TITLE)],
  ["pastor", pastorGalleryPath(TITLE)],
  ["editor", editGalleryPath(TITLE)],
])("opens the %s page of an album whose title ends in .data", async (_, address) => {
  const res = await handle(request(address, { headers: { Cookie: session, Origin: ORIGIN } }));
  expect(res.status, address).toBe(200);
  expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
  expect(await res.text()).toContain(TITLE);
});
