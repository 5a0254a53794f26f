// The article pages of the pastor area, called as Remix calls them: real
// multipart requests from a signed-in browser, real database and storage.
import fs from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { createCookie } from "@remix-run/node";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { articles } from "~/services/schema";
import { db } from "~/services/db.server";
import { IMAGE_MESSAGES } from "~/services/images.server";
import { ARTICLE_MESSAGES } from "~/features/articles/messages";
import { UPLOAD_MESSAGES } from "~/services/upload.server";
import { loader as publicArticleLoader } from "~/routes/aktualnosci.$id";
import { loader as publicListLoader } from "~/routes/aktualnosci._index";
import { action as viewAction, loader as viewLoader } from "~/routes/strefapastora.artykuly.$id";
import { loader as listLoader } from "~/routes/strefapastora.artykuly._index";
import { action as addAction, loader as addLoader } from "~/routes/strefapastora.artykuly.dodaj";
import { action as editAction, loader as editLoader } from "~/routes/strefapastora.artykuly.edytuj.$id";
import { action as addUploadAction } from "~/routes/strefapastora.artykuly.dodaj.wyslij";
import { action as editUploadAction } from "~/routes/strefapastora.artykuly.edytuj.$id.wyslij";
import { storage } from "~/services/storage.server";
import { insertArticle } from "../fixtures";
import { ORIGIN, PASTOR, addPastor, cookieHeader, cookiesFrom, signIn } from "../auth-helpers";
import { request, resetDatabase, settle } from "../helpers";

let session: string;
let csrf: string;

beforeAll(async () => {
  await resetDatabase();
  await addPastor();
  session = await signIn(PASTOR);
  const res = await settle(async () =>
    addLoader({ request: get("/strefapastora/artykuly/dodaj"), params: {}, context: {} }),
  );
  csrf = ((await res.json()) as { csrf: string }).csrf;
});

beforeEach(async () => {
  await (await db()).delete(articles);
  await fs.rm(path.join(process.env.DATA_DIR!, "uploads"), { recursive: true, force: true });
});

function get(path: string, cookie = session) {
  return request(path, { headers: { Cookie: cookie } });
}

/** A form as the browser sends it: the session's token first, then the fields in page order. */
function form(fields: Record<string, string | File>) {
  const body = new FormData();
  body.append("csrf", csrf);
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
}

function post(path: string, body: FormData | URLSearchParams) {
  return request(path, { method: "POST", body, headers: { Cookie: session, Origin: ORIGIN } });
}

async function jpegFile(name: string, width = 1000, height = 750) {
  const data = await sharp({ create: { width, height, channels: 3, background: "#6699cc" } })
    .jpeg()
    .toBuffer();
  return new File([data], name, { type: "image/jpeg" });
}

const emptyFile = () => new File([], "", { type: "application/octet-stream" });

async function body<T = Record<string, unknown>>(res: Response) {
  return (await res.json()) as T;
}

async function allRows() {
  return (await db()).select().from(articles).orderBy(articles.id);
}

describe("the article list", () => {
  it("shows the e-mail and the cards newest first, each with a delete question", async () => {
    await insertArticle({ header: "Starszy", date: "2024-01-01" });
    await insertArticle({ header: "Nowszy", date: "2025-01-01" });
    await insertArticle({ header: "Dawny", date: "12 września 2020, sobota" });
    const res = await settle(async () =>
      listLoader({ request: get("/strefapastora/artykuly"), params: {}, context: {} }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const data = await body<{ email: string; csrf: string; articles: { header: string; question: string }[] }>(res);
    expect(data.email).toBe(PASTOR.email);
    expect(data.csrf).toBe(csrf);
    expect(data.articles.map((a) => a.header)).toEqual(["Nowszy", "Starszy", "Dawny"]);
    expect(data.articles[0].question).toBe('Czy napewno usunąć kartę "Nowszy"?');
  });
});

describe("adding", () => {
  it("saves a multipart post, redirects with a one-time message, and the article is public", async () => {
    const res = await settle(async () =>
      addAction({
        request: post(
          "/strefapastora/artykuly/dodaj",
          form({
            image: await jpegFile("IMG_2001.JPG"),
            header: "Koncert",
            text: "Zapraszamy\r\nw sobotę.",
            date: "2025-09-13",
          }),
        ),
        params: {},
        context: {},
      }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/strefapastora/artykuly");

    const [saved] = await allRows();
    expect(saved).toMatchObject({
      header: "Koncert",
      text: "Zapraszamy\nw sobotę.",
      date: "2025-09-13",
    });
    expect(saved.imageKey).toMatch(/^aktualnosci\/[0-9a-f]{24}-IMG_2001\.jpg$/);
    expect(Number(saved.id)).toBeGreaterThan(Date.now() - 60_000);

    // The next page shows the message once.
    const flashCookie = cookieHeader(cookiesFrom(res));
    const list = await settle(async () =>
      listLoader({ request: get("/strefapastora/artykuly", `${session}; ${flashCookie}`), params: {}, context: {} }),
    );
    expect((await body(list)).flash).toBe("Dodano artykuł.");
    expect(list.headers.getSetCookie().some((c) => c.startsWith("flash=;"))).toBe(true);

    const publicList = await body<{ articles: { header: string; image: { srcSet: string } }[] }>(
      await settle(async () => publicListLoader({ request: request("/aktualnosci"), params: {}, context: {} })),
    );
    expect(publicList.articles[0].header).toBe("Koncert");
    expect(publicList.articles[0].image.srcSet).toContain(`/pliki/${saved.imageKey!.slice(0, -4)}-480.webp 480w`);
    const publicArticle = await settle(async () =>
      publicArticleLoader({ request: request(`/aktualnosci/${saved.id}`), params: { id: saved.id }, context: {} }),
    );
    expect(publicArticle.status).toBe(200);
    expect(await storage().exists(saved.imageKey!)).toBe(true);
  });

  it("shows no message from a flash cookie the site did not sign", async () => {
    const planted = "Konto zablokowane. Zadzwoń pod 600 000 000.";
    const pair = async (cookie: ReturnType<typeof createCookie>) => (await cookie.serialize(planted)).split(";")[0];
    for (const forged of [
      await pair(createCookie("flash")),
      await pair(createCookie("flash", { secrets: ["a-secret-of-someone-else-32-characters"] })),
    ]) {
      const list = await settle(async () =>
        listLoader({ request: get("/strefapastora/artykuly", `${session}; ${forged}`), params: {}, context: {} }),
      );
      expect(list.status).toBe(200);
      expect((await body(list)).flash).toBeNull();
    }
  });

  it("refuses an incomplete form with 'Wypełnij wszystkie pola', returning what was typed", async () => {
    const res = await settle(async () =>
      addAction({
        request: post(
          "/strefapastora/artykuly/dodaj",
          form({ image: await jpegFile("a.jpg"), header: "Tylko nagłówek", text: "", date: "" }),
        ),
        params: {},
        context: {},
      }),
    );
    expect(res.status).toBe(400);
    expect(await body(res)).toEqual({
      error: "Wypełnij wszystkie pola",
      fields: ["text", "date"],
      values: { header: "Tylko nagłówek", text: "", date: "", changeImage: false, publishAt: "" },
      hadImage: true,
    });
    expect(await allRows()).toEqual([]);
    expect(await storage().list("aktualnosci/")).toEqual([]);
  });

  it("refuses a form with no photo chosen (an empty file part)", async () => {
    const res = await settle(async () =>
      addAction({
        request: post(
          "/strefapastora/artykuly/dodaj",
          form({ image: emptyFile(), header: "N", text: "T", date: "2025-01-01" }),
        ),
        params: {},
        context: {},
      }),
    );
    expect(res.status).toBe(400);
    expect(await body(res)).toMatchObject({ error: "Wypełnij wszystkie pola", fields: ["image"], hadImage: false });
  });

  it("shows the pipeline's refusal of a text file called .jpg, keeping the text", async () => {
    const fake = new File(["to nie jest zdjęcie\n".repeat(40)], "zdjecie.jpg", { type: "image/jpeg" });
    const res = await settle(async () =>
      addAction({
        request: post(
          "/strefapastora/artykuly/dodaj",
          form({ image: fake, header: "Nagłówek", text: "Długa treść", date: "2025-01-01" }),
        ),
        params: {},
        context: {},
      }),
    );
    expect(res.status).toBe(400);
    expect(await body(res)).toMatchObject({
      error: IMAGE_MESSAGES.notImage,
      fields: ["image"],
      values: { header: "Nagłówek", text: "Długa treść", date: "2025-01-01" },
    });
  });

  it("answers a malformed body or a second file with 4xx and a Polish message", async () => {
    const plain = await settle(async () =>
      addAction({
        request: post("/strefapastora/artykuly/dodaj", new URLSearchParams({ csrf, header: "N" })),
        params: {},
        context: {},
      }),
    );
    expect(plain.status).toBe(400);
    expect((await body(plain)).error).toBe(
      "Nie udało się odczytać przesłanego formularza. Spróbuj wysłać go jeszcze raz.",
    );

    const two = form({ header: "N", text: "T", date: "2025-01-01" });
    two.append("image", await jpegFile("a.jpg"));
    two.append("image", await jpegFile("b.jpg"));
    const res = await settle(async () =>
      addAction({ request: post("/strefapastora/artykuly/dodaj", two), params: {}, context: {} }),
    );
    expect(res.status).toBe(413);
    expect((await body(res)).values).toMatchObject({ header: "N", text: "T" });
    expect(await allRows()).toEqual([]);
  });
});

// The script's way in (app/components/upload-progress.tsx): the same form,
// answered with JSON instead of a redirect or a page.
describe("the upload routes", () => {
  it("save as the page does, answering { redirectTo } and leaving the one-time message", async () => {
    const res = await settle(async () =>
      addUploadAction({
        request: post(
          "/strefapastora/artykuly/dodaj/wyslij",
          form({ image: await jpegFile("skrypt.jpg"), header: "Ze skryptu", text: "Treść", date: "2025-03-04" }),
        ),
        params: {},
        context: {},
      }),
    );
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ redirectTo: "/strefapastora/artykuly" });
    const [saved] = await allRows();
    expect(saved).toMatchObject({ header: "Ze skryptu" });
    expect(saved.imageKey).toMatch(/^aktualnosci\/[0-9a-f]{24}-skrypt\.jpg$/);

    const list = await settle(async () =>
      listLoader({
        request: get("/strefapastora/artykuly", `${session}; ${cookieHeader(cookiesFrom(res))}`),
        params: {},
        context: {},
      }),
    );
    expect((await body(list)).flash).toBe("Dodano artykuł.");

    const edited = await settle(async () =>
      editUploadAction({
        request: post(
          `/strefapastora/artykuly/edytuj/${saved.id}/wyslij`,
          form({ header: "Poprawiony", text: "Treść", date: "2025-03-04" }),
        ),
        params: { id: saved.id },
        context: {},
      }),
    );
    expect(await body(edited)).toEqual({ redirectTo: "/strefapastora/artykuly" });
    expect((await allRows())[0].header).toBe("Poprawiony");
  });

  it("answer a refusal with the page's own refusal data under `refused`, with its status", async () => {
    const fields = { image: emptyFile(), header: "Tylko nagłówek", text: "", date: "" };
    const page = await settle(async () =>
      addAction({ request: post("/strefapastora/artykuly/dodaj", form(fields)), params: {}, context: {} }),
    );
    const script = await settle(async () =>
      addUploadAction({ request: post("/strefapastora/artykuly/dodaj/wyslij", form(fields)), params: {}, context: {} }),
    );
    expect(script.status).toBe(page.status);
    expect(script.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await body(script)).toEqual({ refused: await body(page) });

    const missing = await settle(async () =>
      editUploadAction({
        request: post("/strefapastora/artykuly/edytuj/1/wyslij", form({ header: "N", text: "T", date: "2025-01-01" })),
        params: { id: "1" },
        context: {},
      }),
    );
    expect(missing.status).toBe(404);
    expect(await body(missing)).toMatchObject({ refused: { error: "nie ma takiego dokumentu" } });
    expect(await allRows()).toEqual([]);
  });
});

describe("hostile input", () => {
  /** A multipart body written byte by byte, as no browser would. */
  function rawMultipart(parts: { name: string; filename?: string; data: Buffer | string }[]) {
    const boundary = "----zborBoundary7MA4YWxkTrZu0gW";
    const chunks: Buffer[] = [];
    for (const p of parts) {
      const disposition = `form-data; name="${p.name}"${p.filename === undefined ? "" : `; filename="${p.filename}"`}`;
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`, "latin1"),
        Buffer.from(p.data),
        Buffer.from("\r\n"),
      );
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
  }

  it("answers each with 4xx and a Polish message, never 5xx, and changes nothing", async () => {
    const existing = await insertArticle({ header: "Nietykalny" });
    const before = await allRows();
    const image = Buffer.from(await (await jpegFile("x.jpg", 64, 48)).arrayBuffer());
    const bodies = [
      // Bytes that are not UTF-8, and a NUL, in the text fields.
      rawMultipart([
        { name: "csrf", data: csrf },
        { name: "header", data: Buffer.from([0x4e, 0xc3, 0x28, 0xff]) },
        { name: "text", data: "T" },
        { name: "date", data: "2025-01-01" },
        { name: "image", filename: "a.jpg", data: image },
      ]),
      rawMultipart([
        { name: "csrf", data: csrf },
        { name: "header", data: "N\u0000" },
        { name: "text", data: "T" },
        { name: "date", data: "2025-01-01" },
        { name: "image", filename: "a.jpg", data: image },
      ]),
      // A text field over the limit.
      rawMultipart([
        { name: "csrf", data: csrf },
        { name: "header", data: "N" },
        { name: "text", data: "x".repeat(2 * 1024 * 1024) },
      ]),
      // A lying extension with a path in the name, and numbers in place of text.
      rawMultipart([
        { name: "csrf", data: csrf },
        { name: "header", data: "1" },
        { name: "text", data: "2" },
        { name: "date", data: "3" },
        { name: "image", filename: "../../etc/passwd.jpg", data: "root:x:0:0" },
      ]),
      // Cut off before the closing boundary.
      {
        body: rawMultipart([
          { name: "csrf", data: csrf },
          { name: "header", data: "N" },
        ]).body.subarray(0, -20),
        type: rawMultipart([]).type,
      },
    ];
    const expected = [
      ARTICLE_MESSAGES.badCharacters,
      ARTICLE_MESSAGES.badCharacters,
      UPLOAD_MESSAGES.fieldTooLarge(1024 * 1024),
      ARTICLE_MESSAGES.badDate,
      UPLOAD_MESSAGES.malformed,
    ];
    for (const target of ["/strefapastora/artykuly/dodaj", `/strefapastora/artykuly/edytuj/${existing.id}`]) {
      for (const [i, { body: bytes, type }] of bodies.entries()) {
        const req = request(target, {
          method: "POST",
          body: bytes,
          headers: { Cookie: session, Origin: ORIGIN, "Content-Type": type },
        });
        const call = target.includes("edytuj")
          ? () => editAction({ request: req, params: { id: existing.id }, context: {} })
          : () => addAction({ request: req, params: {}, context: {} });
        const res = await settle(call);
        expect(res.status, `${target} #${i}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${target} #${i}`).toBeLessThan(500);
        expect((await body<{ error: string }>(res)).error, `${target} #${i}`).toBe(expected[i]);
      }
    }
    expect(await allRows()).toEqual(before);
    expect(await storage().list("aktualnosci/")).toEqual([]);
  });
});

describe("editing", () => {
  async function created(values: Partial<typeof articles.$inferInsert> = {}) {
    await settle(async () =>
      addAction({
        request: post(
          "/strefapastora/artykuly/dodaj",
          form({ image: await jpegFile("stare.jpg"), header: "Stary", text: "Stara treść", date: "2025-02-02" }),
        ),
        params: {},
        context: {},
      }),
    );
    const [row] = await allRows();
    if (Object.keys(values).length) await (await db()).update(articles).set(values).where(eq(articles.id, row.id));
    return { ...row, ...values };
  }

  const edit = (id: string, fields: Record<string, string | File>) =>
    settle(async () =>
      editAction({ request: post(`/strefapastora/artykuly/edytuj/${id}`, form(fields)), params: { id }, context: {} }),
    );

  it("loads the article for the form; a legacy date is kept aside for the note", async () => {
    const row = await created();
    const res = await settle(async () =>
      editLoader({ request: get(`/strefapastora/artykuly/edytuj/${row.id}`), params: { id: row.id }, context: {} }),
    );
    const { article } = await body<{ article: { date: string; legacyDate: string | null; image: { height: number } } }>(
      res,
    );
    expect(article).toMatchObject({ header: "Stary", text: "Stara treść", date: "2025-02-02", legacyDate: null });
    expect(article.image.height).toBe(750);

    const legacy = await insertArticle({ date: "12 września 2020, sobota" });
    const legacyRes = await settle(async () =>
      editLoader({
        request: get(`/strefapastora/artykuly/edytuj/${legacy.id}`),
        params: { id: legacy.id },
        context: {},
      }),
    );
    expect((await body<{ article: object }>(legacyRes)).article).toMatchObject({
      date: "",
      legacyDate: "12 września 2020, sobota",
    });
  });

  it("saves header, text and date, keeping the photo when 'Zmień zdjęcie' is not ticked", async () => {
    const row = await created();
    const res = await edit(row.id, {
      header: "Nowy",
      date: "2025-03-03",
      text: "Nowa\r\ntreść",
      image: await jpegFile("pominiete.jpg"),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/strefapastora/artykuly");
    expect(res.headers.get("Set-Cookie")).toContain("flash=");
    const [after] = await allRows();
    expect(after).toMatchObject({
      header: "Nowy",
      text: "Nowa\ntreść",
      date: "2025-03-03",
      imageKey: row.imageKey,
    });
    expect((await storage().list("aktualnosci/")).filter((e) => e.key.includes("pominiete"))).toEqual([]);
  });

  it("replaces the photo when ticked and chosen", async () => {
    const row = await created();
    const res = await edit(row.id, {
      header: "Stary",
      date: "2025-02-02",
      text: "Stara treść",
      changeImage: "1",
      image: await jpegFile("nowe.jpg", 800, 1200),
    });
    expect(res.status).toBe(302);
    const [after] = await allRows();
    expect(after).toMatchObject({ imageWidth: 800, imageHeight: 1200 });
    expect(after.imageKey).toMatch(/^aktualnosci\/[0-9a-f]{24}-nowe\.jpg$/);
    expect(await storage().exists(row.imageKey!)).toBe(false);
  });

  it("shows each edit rule's message with what was typed, changing nothing", async () => {
    const row = await created();
    const blank = await edit(row.id, { header: " ", date: "2025-02-02", text: "Treść" });
    expect(blank.status).toBe(400);
    expect(await body(blank)).toMatchObject({
      error: "Tytuł i treść nie mogą być puste!",
      values: { header: " ", text: "Treść", date: "2025-02-02", changeImage: false },
    });
    const noPhoto = await edit(row.id, {
      header: "Nowy",
      date: "2025-02-02",
      text: "Treść",
      changeImage: "1",
      image: emptyFile(),
    });
    expect(noPhoto.status).toBe(400);
    expect(await body(noPhoto)).toMatchObject({
      error: "Jeśli chcesz zmienić zdjęcie, wybierz zdjęcie!",
      fields: ["image"],
      values: { header: "Nowy", changeImage: true },
    });
    expect(await allRows()).toEqual([row]);
  });

  it("keeps a legacy date when the date field comes back empty", async () => {
    const row = await created({ date: "12 września 2020, sobota" });
    expect((await edit(row.id, { header: "Modlitwa", date: "", text: "Treść" })).status).toBe(302);
    expect((await allRows())[0]).toMatchObject({ header: "Modlitwa", date: "12 września 2020, sobota" });
  });

  it("answers 404 for an article that does not exist", async () => {
    const page = await settle(async () =>
      editLoader({ request: get("/strefapastora/artykuly/edytuj/1"), params: { id: "1" }, context: {} }),
    );
    expect(page.status).toBe(404);
    expect((await body(page)).article).toBeNull();
    const res = await edit("1", { header: "N", date: "2025-01-01", text: "T" });
    expect(res.status).toBe(404);
    expect((await body(res)).error).toBe("nie ma takiego dokumentu");
  });
});

describe("viewing and deleting", () => {
  const deletePost = (id: string, confirmed: boolean) =>
    settle(async () =>
      viewAction({
        request: post(
          `/strefapastora/artykuly/${id}`,
          new URLSearchParams({ csrf, intent: "delete", confirmed: confirmed ? "1" : "" }),
        ),
        params: { id },
        context: {},
      }),
    );

  it("shows the article, or 404 'nie ma takiego dokumentu'", async () => {
    const row = await insertArticle({ header: "Widok" });
    const res = await settle(async () =>
      viewLoader({ request: get(`/strefapastora/artykuly/${row.id}`), params: { id: row.id }, context: {} }),
    );
    expect(res.status).toBe(200);
    expect((await body<{ article: { header: string } }>(res)).article.header).toBe("Widok");
    const missing = await settle(async () =>
      viewLoader({ request: get("/strefapastora/artykuly/1"), params: { id: "1" }, context: {} }),
    );
    expect(missing.status).toBe(404);
  });

  it("without JavaScript asks first (server-rendered), then deletes on the confirmed post", async () => {
    const row = await insertArticle({ header: "Do usunięcia", imageKey: null, imageWidth: null, imageHeight: null });
    const first = await deletePost(row.id, false);
    expect(first.status).toBe(200);
    expect(await body(first)).toEqual({ confirm: 'Czy napewno usunąć kartę "Do usunięcia"?' });
    expect(await allRows()).toHaveLength(1);

    const confirmed = await deletePost(row.id, true);
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("Location")).toBe("/strefapastora/artykuly");
    expect(confirmed.headers.get("Set-Cookie")).toContain("flash=");
    // In the bin: the row stays, marked deleted.
    expect((await allRows()).map((r) => r.deletedAt === null)).toEqual([false]);

    expect((await deletePost(row.id, true)).status).toBe(404);
    expect((await deletePost(row.id, false)).status).toBe(404);
  });

  it("refuses a post that is not a delete", async () => {
    const row = await insertArticle();
    const res = await settle(async () =>
      viewAction({
        request: post(
          `/strefapastora/artykuly/${row.id}`,
          new URLSearchParams({ csrf, intent: "cokolwiek", confirmed: "1" }),
        ),
        params: { id: row.id },
        context: {},
      }),
    );
    expect(res.status).toBe(400);
    expect(await allRows()).toHaveLength(1);
  });
});
