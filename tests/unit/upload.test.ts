import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readCapped } from "~/services/streams.server";
import {
  type ParsedUpload,
  type UploadResult,
  UPLOAD_MESSAGES,
  parseUpload,
  removeStaleUploads,
} from "~/services/upload.server";

const MB = 1024 * 1024;
let tmpDir: string;

beforeEach(async () => {
  tmpDir = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-upload-test-"));
});
afterAll(async () => {
  const leftovers = await fs.readdir(os.tmpdir());
  for (const name of leftovers.filter((n) => n.startsWith("zbor-upload-test-"))) {
    await fs.rm(path.join(os.tmpdir(), name), { recursive: true, force: true });
  }
});

const post = (body: BodyInit | Buffer, headers?: HeadersInit) =>
  new Request("http://localhost/strefapastora/artykuly/dodaj", { method: "POST", body: body as BodyInit, headers });

/** Temporary files still on disk under this test's folder. */
async function filesLeft(): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(tmpDir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out.push(entry.name);
  }
  return out;
}

function expectOk(result: UploadResult): ParsedUpload {
  if (!result.ok) throw new Error(`Expected success, got ${result.status}: ${result.message}`);
  return result;
}

/** The exact bytes and header a browser would send for this form. */
async function encoded(form: FormData): Promise<{ bytes: Buffer; contentType: string }> {
  const request = post(form);
  return { bytes: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get("Content-Type")! };
}

describe("multipart upload parsing", () => {
  it("streams several files to temporary files and keeps the text fields", async () => {
    const form = new FormData();
    form.append("header", "Nabożeństwo – zaproszenie");
    form.append("text", "Zażółć gęślą jaźń\nDruga linia");
    const photos = [Buffer.alloc(3 * MB + 17, 1), Buffer.alloc(70_000, 2), Buffer.from("trzeci")];
    form.append("photos", new Blob([photos[0]], { type: "image/jpeg" }), "IMG_0001.JPG");
    form.append("photos", new Blob([photos[1]], { type: "image/png" }), "Zdjęcie łąki.png");
    form.append("order", "2");
    form.append("order", "1");
    form.append("photos", new Blob([photos[2]]), "C:\\Users\\pastor\\trzecie.jpg");

    const upload = expectOk(await parseUpload(post(form), { tmpDir }));
    expect(upload.fields.get("header")).toBe("Nabożeństwo – zaproszenie");
    // Browsers send line breaks of a textarea as CRLF; they arrive as sent.
    expect(upload.fields.get("text")).toBe("Zażółć gęślą jaźń\r\nDruga linia");
    expect(upload.fields.getAll("order")).toEqual(["2", "1"]);
    expect(upload.fields.has("photos")).toBe(false);

    expect(upload.files.map((f) => [f.field, f.name, f.size])).toEqual([
      ["photos", "IMG_0001.JPG", photos[0].length],
      ["photos", "Zdjęcie łąki.png", photos[1].length],
      ["photos", "trzecie.jpg", photos[2].length],
    ]);
    expect(upload.files[0].contentType).toBe("image/jpeg");
    for (const [i, f] of upload.files.entries()) {
      expect(path.dirname(path.dirname(f.path))).toBe(tmpDir);
      expect((await fs.readFile(f.path)).equals(photos[i])).toBe(true);
    }
    await upload.cleanup();
    expect(await filesLeft()).toEqual([]);
    await upload.cleanup();
  });

  it("skips a file input left empty", async () => {
    const form = new FormData();
    form.append("header", "Bez zdjęcia");
    form.append("image", new Blob([], { type: "application/octet-stream" }), "");
    const upload = expectOk(await parseUpload(post(form), { tmpDir }));
    expect(upload.files).toEqual([]);
    expect(upload.fields.get("header")).toBe("Bez zdjęcia");
    expect(await fs.readdir(tmpDir)).toEqual([]);
  });

  it("answers a file over 25 MB with 413, naming it, and leaves no temporary file", async () => {
    const form = new FormData();
    form.append("header", "Obóz");
    form.append("image", new Blob([Buffer.alloc(25 * MB + 1)], { type: "image/jpeg" }), "IMG_9999.JPG");
    form.append("text", "po pliku");
    const result = await parseUpload(post(form), { tmpDir });
    expect(result).toMatchObject({
      ok: false,
      status: 413,
      message: "Plik „IMG_9999.JPG” jest za duży (maksymalnie 25 MB).",
    });
    // What was typed before the file can refill the form.
    expect(result.fields.get("header")).toBe("Obóz");
    expect(await filesLeft()).toEqual([]);

    // Exactly at the limit is fine.
    const ok = new FormData();
    ok.append("image", new Blob([Buffer.alloc(25 * MB)]), "granica.jpg");
    const upload = expectOk(await parseUpload(post(ok), { tmpDir }));
    expect(upload.files[0].size).toBe(25 * MB);
    await upload.cleanup();
  });

  it("answers a text field over 1 MB with 413", async () => {
    const form = new FormData();
    form.append("image", new Blob([Buffer.alloc(1000, 1)]), "a.jpg");
    form.append("text", "ż".repeat(MB / 2 + 1));
    const result = await parseUpload(post(form), { tmpDir });
    expect(result).toMatchObject({ ok: false, status: 413, message: UPLOAD_MESSAGES.fieldTooLarge(MB) });
    expect(result.ok || result.message).toBe("Tekst w formularzu jest za długi (maksymalnie 1 MB).");
    expect(await filesLeft()).toEqual([]);
  });

  it("caps the whole body, with or without Content-Length", async () => {
    const form = new FormData();
    for (let i = 0; i < 4; i++) form.append("photos", new Blob([Buffer.alloc(400_000, i)]), `${i}.jpg`);
    const { bytes, contentType } = await encoded(form);
    const message = UPLOAD_MESSAGES.totalTooLarge(MB);
    expect(message).toBe("Przesyłane pliki są razem za duże (maksymalnie 1 MB naraz). Wyślij mniej zdjęć naraz.");

    // Declared too large: refused from its declared length, nothing stored.
    // (The rest is still read and dropped, so a browser shows the answer.)
    const untouched = new ReadableStream({}, { highWaterMark: 0 });
    const declared = new Request("http://localhost/", {
      method: "POST",
      body: untouched,
      headers: { "Content-Type": contentType, "Content-Length": String(bytes.length) },
      duplex: "half",
    } as RequestInit);
    expect(await parseUpload(declared, { tmpDir, maxTotalBytes: MB })).toMatchObject({
      ok: false,
      status: 413,
      message,
    });
    expect(await fs.readdir(tmpDir)).toEqual([]);

    // Chunked, no length given: counted while it flows.
    const chunked = new Request("http://localhost/", {
      method: "POST",
      body: new ReadableStream({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.subarray(at, at + 64 * 1024));
          controller.close();
        },
      }),
      headers: { "Content-Type": contentType },
      duplex: "half",
    } as RequestInit);
    expect(await parseUpload(chunked, { tmpDir, maxTotalBytes: MB })).toMatchObject({
      ok: false,
      status: 413,
      message,
    });
    expect(await filesLeft()).toEqual([]);
  });

  it("refuses more files than allowed at once", async () => {
    const form = new FormData();
    for (let i = 0; i < 4; i++) form.append("photos", new Blob([`plik ${i}`]), `${i}.jpg`);
    const result = await parseUpload(post(form), { tmpDir, maxFiles: 3 });
    expect(result).toMatchObject({
      ok: false,
      status: 413,
      message: "Za dużo plików naraz (maksymalnie 3). Wyślij je w kilku częściach.",
    });
    expect(await filesLeft()).toEqual([]);
  });

  it("answers a malformed body with 400, never an exception", async () => {
    const form = new FormData();
    form.append("header", "Tytuł");
    form.append("image", new Blob([Buffer.alloc(200_000, 3)]), "a.jpg");
    form.append("text", "Treść");
    const { bytes, contentType } = await encoded(form);
    const boundary = contentType.split("boundary=")[1];

    const malformed: [string, Request][] = [
      ["cut off in the middle of a file", post(bytes.subarray(0, 100_000), { "Content-Type": contentType })],
      [
        "cut off after a delimiter",
        post(bytes.subarray(0, bytes.indexOf(`--${boundary}`, 10)), { "Content-Type": contentType }),
      ],
      ["no delimiter at all", post("to nie jest formularz", { "Content-Type": contentType })],
      ["no boundary", post(bytes, { "Content-Type": "multipart/form-data" })],
      ["not multipart", post("header=Tytu%C5%82", { "Content-Type": "application/x-www-form-urlencoded" })],
      [
        "part without Content-Disposition",
        post(`--${boundary}\r\nContent-Type: text/plain\r\n\r\nx\r\n--${boundary}--\r\n`, {
          "Content-Type": contentType,
        }),
      ],
      [
        "mismatched quotes in a header",
        post(`--${boundary}\r\nContent-Disposition: form-data; name="a\r\n\r\nx\r\n--${boundary}--\r\n`, {
          "Content-Type": contentType,
        }),
      ],
      ["no body", new Request("http://localhost/", { method: "POST", headers: { "Content-Type": contentType } })],
    ];
    for (const [label, request] of malformed) {
      const result = await parseUpload(request, { tmpDir });
      expect(result, label).toMatchObject({ ok: false, status: 400, message: UPLOAD_MESSAGES.malformed });
    }
    expect(await filesLeft()).toEqual([]);

    // The same bytes whole are fine, and so is a form with no fields at all.
    const whole = expectOk(await parseUpload(post(bytes, { "Content-Type": contentType }), { tmpDir }));
    expect(whole.fields.get("text")).toBe("Treść");
    await whole.cleanup();
    expectOk(await parseUpload(post(`--${boundary}--\r\n`, { "Content-Type": contentType }), { tmpDir }));
  });

  it("removes temporary folders left behind by a stopped process", async () => {
    const stale = await fs.mkdtemp(path.join(tmpDir, "zbor-upload-"));
    await fs.writeFile(path.join(stale, "x"), "x");
    const old = new Date(Date.now() - 7 * 60 * 60 * 1000);
    await fs.utimes(stale, old, old);
    const fresh = await fs.mkdtemp(path.join(tmpDir, "zbor-upload-"));
    const other = await fs.mkdtemp(path.join(tmpDir, "cos-innego-"));
    await fs.utimes(other, old, old);

    expect(await removeStaleUploads(6 * 60 * 60 * 1000, tmpDir)).toBe(1);
    expect((await fs.readdir(tmpDir)).sort()).toEqual([path.basename(other), path.basename(fresh)].sort());
  });
});

// remix-serve without single fetch installs @remix-run/web-fetch as the
// global Request, FormData and friends: the parser must work there too.
describe("multipart upload parsing under remix-serve's fetch globals", () => {
  const names = ["Request", "Response", "Headers", "FormData", "File", "fetch"] as const;
  const saved = Object.fromEntries(names.map((n) => [n, globalThis[n]]));
  beforeAll(async () => {
    const { installGlobals } = await import("@remix-run/node");
    installGlobals();
  });
  afterAll(() => {
    Object.assign(globalThis, saved);
  });

  it("parses files and fields, and still answers an oversized file with 413", async () => {
    expect(globalThis.Request).not.toBe(saved.Request);
    const form = new FormData();
    form.append("header", "Zbór");
    form.append("image", new File([Buffer.alloc(2 * MB, 5)], "IMG_1.JPG", { type: "image/jpeg" }));
    const upload = expectOk(await parseUpload(post(form), { tmpDir }));
    expect(upload.fields.get("header")).toBe("Zbór");
    expect(upload.files.map((f) => [f.name, f.size])).toEqual([["IMG_1.JPG", 2 * MB]]);
    await upload.cleanup();

    const result = await parseUpload(post(form), { tmpDir, maxFileBytes: MB });
    expect(result).toMatchObject({
      ok: false,
      status: 413,
      message: "Plik „IMG_1.JPG” jest za duży (maksymalnie 1 MB).",
    });
    expect(await filesLeft()).toEqual([]);
  });
});

describe("readCapped", () => {
  function streamOf(chunks: number[], onCancel: () => void) {
    let i = 0;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i < chunks.length) controller.enqueue(new Uint8Array(chunks[i++]).fill(97));
        else controller.close();
      },
      cancel: onCancel,
    });
  }

  it("reads a body within the cap whole", async () => {
    const body = await readCapped(
      streamOf([3, 4], () => {}),
      7,
    );
    expect(body?.toString()).toBe("aaaaaaa");
  });

  it("stops at the first byte over the cap, without reading the rest", async () => {
    let cancelled = false;
    const body = await readCapped(
      streamOf([4, 4, 1_000_000], () => {
        cancelled = true;
      }),
      7,
    );
    expect(body).toBeNull();
    expect(cancelled).toBe(true);
  });
});
