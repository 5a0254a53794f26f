// SIGTERM: the server stops accepting, finishes the requests under way and exits 0.
import http from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createScratchDatabase, postgresAvailable } from "../setup/database";
import { startBuiltServer } from "./server";

let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;

beforeAll(async () => {
  if (await postgresAvailable()) scratch = await createScratchDatabase("sigterm");
});
afterAll(async () => {
  await scratch?.drop();
});

it("finishes requests in flight and exits with code 0 within 10 s", async () => {
  const server = await startBuiltServer(scratch ? { DATABASE_URL: scratch.url } : {});
  // Requests whose body arrives slowly, each begun by the server when the
  // signal comes: sent with `Expect: 100-continue`, so the server's
  // "100 Continue" proves it has accepted the connection and read the
  // headers (a connection still waiting in the kernel's queue when the
  // port closes is refused, which a client may retry elsewhere).
  const port = new URL(server.base).port;
  const begun: Promise<void>[] = [];
  const inFlight = Array.from({ length: 20 }, () => {
    const req = http.request({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: "/strefapastora/logowanie",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: server.base,
        Expect: "100-continue",
        "Content-Length": String("email=a%40example.org&password=x".length),
      },
    });
    begun.push(new Promise((resolve) => req.once("continue", resolve)));
    const answered = new Promise<number>((resolve, reject) => {
      req.once("response", (res) => {
        res.resume();
        res.once("end", () => resolve(res.statusCode!));
      });
      req.once("error", reject);
    });
    req.flushHeaders();
    return { req, answered };
  });
  await Promise.all(begun);
  for (const { req } of inFlight) req.write("email=a%40example.org");
  const signalledAt = Date.now();
  server.child.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 1_000));
  for (const { req } of inFlight) req.end("&password=x");
  const statuses = await Promise.all(inFlight.map((r) => r.answered));
  const code = await server.exited;
  const took = Date.now() - signalledAt;
  // Each got its whole answer (the form has no login token: 403), none a reset.
  expect(statuses).toEqual(Array(20).fill(403));
  expect(code).toBe(0);
  expect(took).toBeLessThan(10_000);
  // Once stopped, nothing answers any more.
  await expect(fetch(`${server.base}/healthz`)).rejects.toThrow();
  await server.stop();
}, 30_000);
