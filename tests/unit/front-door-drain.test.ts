// A post answered before its body is read: the front door reads the rest, so
// the client sees the answer instead of a reset connection, up to a cap.
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { finishReadingBody } from "~/http/front-door.server";

const MB = 1024 * 1024;
let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    finishReadingBody(req, res, 8 * MB);
    // The body as remix-serve hands it to Remix: a stream that nobody reads,
    // or that a route cancels (which destroys the request).
    const body = createReadableStreamFromReadable(req);
    if (req.url === "/cancelled") await body.cancel();
    const text = req.method === "POST" ? "Nieprawidłowe żądanie." : "ok";
    res.writeHead(req.method === "POST" ? 403 : 200, {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Length": Buffer.byteLength(text),
    });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface Exchange {
  answers: string[];
  bodySent: number;
  error: string | null;
  closedByServer: boolean;
}

/** One connection: a POST of `size` bytes, then (when `then`) two GETs on the same connection. */
function exchange({
  path = "/",
  size,
  connection = "keep-alive",
  then = false,
}: {
  path?: string;
  size: number;
  connection?: string;
  then?: boolean;
}): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    let bodySent = 0;
    let error: string | null = null;
    let closedByServer = false;
    socket.setEncoding("utf8");
    socket.on("data", (d: string) => {
      text += d;
      // The second GET is sent once the first is answered: the connection still reads.
      const answered = text.split("\r\n\r\nok").length - 1;
      if (then && answered === 1 && text.endsWith("ok")) socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
      if (then && answered === 2 && text.endsWith("ok")) socket.end();
    });
    socket.on("end", () => (closedByServer = true));
    socket.on("error", (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on("close", () =>
      resolve({ answers: text.match(/HTTP\/1\.1 \d{3}/g) ?? [], bodySent, error, closedByServer }),
    );
    socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nConnection: ${connection}\r\nContent-Length: ${size}\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = () => {
      while (bodySent < size) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - bodySent));
        bodySent += part.length;
        if (!socket.write(part)) return void socket.once("drain", pump);
      }
      if (then) socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
      else if (connection !== "close") socket.end();
    };
    pump();
  });
}

describe("a body the app did not read", () => {
  it("is read to its end; the connection then serves the next request", async () => {
    const res = await exchange({ size: 6 * MB, then: true });
    expect(res).toMatchObject({ bodySent: 6 * MB, error: null });
    expect(res.answers).toEqual(["HTTP/1.1 403", "HTTP/1.1 200", "HTTP/1.1 200"]);
  });

  it("is read to its end when the app cancelled reading it", async () => {
    const res = await exchange({ path: "/cancelled", size: 6 * MB, then: true });
    expect(res).toMatchObject({ bodySent: 6 * MB, error: null });
    expect(res.answers).toEqual(["HTTP/1.1 403", "HTTP/1.1 200", "HTTP/1.1 200"]);
  });

  it("is read to its end before a Connection: close exchange ends", async () => {
    const res = await exchange({ size: 6 * MB, connection: "close" });
    expect(res).toMatchObject({ bodySent: 6 * MB, error: null, closedByServer: true });
    expect(res.answers).toEqual(["HTTP/1.1 403"]);
  });

  it("beyond the cap, costs the client its connection after the answer", async () => {
    const res = await exchange({ size: 64 * MB });
    expect(res.answers).toEqual(["HTTP/1.1 403"]);
    expect(res.bodySent).toBeLessThan(64 * MB);
  });
});
