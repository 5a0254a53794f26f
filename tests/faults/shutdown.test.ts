// SIGTERM: the server stops accepting, finishes the requests under way and exits 0.
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
  // Requests whose body arrives slowly: the server has begun each of them
  // (headers read, action waiting for the form) when the signal comes.
  const slowBody = () =>
    new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode("email=a%40example.org"));
        await new Promise((r) => setTimeout(r, 1_000));
        controller.enqueue(new TextEncoder().encode("&password=x"));
        controller.close();
      },
    });
  const inFlight = Array.from({ length: 20 }, () =>
    fetch(`${server.base}/strefapastora/logowanie`, {
      method: "POST",
      body: slowBody(),
      duplex: "half",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.base },
    } as RequestInit).then(async (r) => {
      await r.text();
      return r.status;
    }),
  );
  await new Promise((r) => setTimeout(r, 300));
  const signalledAt = Date.now();
  server.child.kill("SIGTERM");
  const statuses = await Promise.all(inFlight);
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
