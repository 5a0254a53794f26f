// A post the server refuses before reading its body (a bad form token, too
// large, the wrong type) must still be read to its end: a client cut off
// while sending sees a reset connection instead of the Polish answer. A raw
// socket shows what a browser gets: every byte accepted, then the answer.
import net from "node:net";
import type { APIRequestContext } from "@playwright/test";
import { PASTOR, expect, test } from "./fixtures";

const FORM = "/strefapastora/galeria/dodaj";
const BODY_BYTES = 40 * 1024 * 1024;

async function signIn(request: APIRequestContext, baseURL: string) {
  const page = await request.get("/strefapastora/logowanie");
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1];
  const res = await request.post("/strefapastora/logowanie", {
    form: { ...PASTOR, csrf },
    headers: { Origin: baseURL },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(302);
  const form = await request.get(FORM);
  const cookies = (await request.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  return { cookie: cookies, csrf: /name="csrf" value="([^"]+)"/.exec(await form.text())![1] };
}

interface Sent {
  status: number;
  text: string;
  bytesSent: number;
  error: string | null;
}

/** Whether `answer` holds a whole HTTP response: its headers and the body they announce. */
function answerComplete(answer: Buffer): boolean {
  const end = answer.indexOf("\r\n\r\n");
  if (end < 0) return false;
  const head = answer.subarray(0, end).toString("latin1").toLowerCase();
  const body = answer.subarray(end + 4);
  const length = head.split("\r\n").find((line) => line.startsWith("content-length:"));
  if (length) return body.length >= Number(length.slice("content-length:".length).trim());
  if (head.includes("transfer-encoding: chunked")) return body.subarray(-5).toString("latin1") === "0\r\n\r\n";
  return false;
}

/** Sends `head`, `size` filler bytes and `tail` on one connection; reads the whole answer. */
function rawPost(
  baseURL: string,
  {
    path = FORM,
    headers,
    head,
    size,
    tail,
  }: { path?: string; headers: Record<string, string>; head: string; size: number; tail: string },
): Promise<Sent & { total: number }> {
  const url = new URL(baseURL);
  const total = Buffer.byteLength(head) + size + Buffer.byteLength(tail);
  const lines = Object.entries({ Host: url.host, ...headers, "Content-Length": String(total) })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const received: Buffer[] = [];
    let bytesSent = 0;
    let allWritten = false;
    let error: string | null = null;
    // As a browser does, the connection stays open until the answer is whole:
    // a client that closes its side first may be taken for one that left.
    socket.on("data", (d) => {
      received.push(d);
      if (allWritten && answerComplete(Buffer.concat(received))) socket.end();
    });
    socket.on("error", (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on("close", () => {
      const answer = Buffer.concat(received).toString("utf8");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      resolve({ status, text: answer, bytesSent, error, total });
    });
    socket.write(`POST ${path} HTTP/1.1\r\n${lines}\r\n`);
    // Only the body is counted.
    const write = (data: Buffer | string) => {
      bytesSent += Buffer.byteLength(data);
      return socket.write(data);
    };
    write(head);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let filler = 0;
    const pump = () => {
      while (filler < size) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - filler));
        filler += part.length;
        if (!write(part)) return void socket.once("drain", pump);
      }
      write(tail);
      allWritten = true;
      if (answerComplete(Buffer.concat(received))) socket.end();
    };
    pump();
  });
}

const multipart = (boundary: string, token: string) => ({
  head: `--${boundary}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n${token}\r\n--${boundary}\r\nContent-Disposition: form-data; name="zdjecia"; filename="duze.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  tail: `\r\n--${boundary}--\r\n`,
});

for (const connection of ["keep-alive", "close"]) {
  test(`a large upload with a bad form token gets the Polish 403 page (Connection: ${connection})`, async ({
    request,
    baseURL,
  }) => {
    const { cookie } = await signIn(request, baseURL!);
    const boundary = "----granica1234";
    const res = await rawPost(baseURL!, {
      headers: {
        Connection: connection,
        Cookie: cookie,
        Origin: baseURL!,
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
      },
      ...multipart(boundary, "zly-token"),
      size: BODY_BYTES,
    });
    expect(res.error).toBeNull();
    expect(res.bytesSent).toBe(res.total);
    expect(res.status).toBe(403);
    expect(res.text).toContain("Nieprawidłowe żądanie");
  });
}

test("a large upload of the wrong type gets the Polish 400 page", async ({ request, baseURL }) => {
  const { cookie, csrf } = await signIn(request, baseURL!);
  const res = await rawPost(baseURL!, {
    headers: { Cookie: cookie, Origin: baseURL!, "Content-Type": "text/plain", "X-CSRF-Token": csrf },
    head: "",
    size: BODY_BYTES,
    tail: "",
  });
  expect(res.error).toBeNull();
  expect(res.bytesSent).toBe(res.total);
  expect(res.status).toBe(400);
  expect(res.text).toContain("Nie udało się odczytać przesłanego formularza");
});

test("a photo over the size limit gets the Polish 413 page", async ({ request, baseURL }) => {
  const { cookie, csrf } = await signIn(request, baseURL!);
  const boundary = "----granica5678";
  const res = await rawPost(baseURL!, {
    headers: { Cookie: cookie, Origin: baseURL!, "Content-Type": `multipart/form-data; boundary=${boundary}` },
    ...multipart(boundary, csrf),
    size: BODY_BYTES,
  });
  expect(res.error).toBeNull();
  expect(res.bytesSent).toBe(res.total);
  expect(res.status).toBe(413);
  expect(res.text).toContain("Plik „duze.jpg” jest za duży (maksymalnie 25 MB).");
});

test("a form refused by its declared length gets the Polish 413 page", async ({ request, baseURL }) => {
  const { cookie, csrf } = await signIn(request, baseURL!);
  const res = await rawPost(baseURL!, {
    path: "/strefapastora/artykuly/1",
    headers: {
      Cookie: cookie,
      Origin: baseURL!,
      "Content-Type": "application/x-www-form-urlencoded",
      "X-CSRF-Token": csrf,
    },
    head: "intent=delete&tekst=",
    size: BODY_BYTES,
    tail: "",
  });
  expect(res.error).toBeNull();
  expect(res.bytesSent).toBe(res.total);
  expect(res.status).toBe(413);
  expect(res.text).toContain("Formularz jest zbyt duży.");
});
