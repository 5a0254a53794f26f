// A client that goes away after its page was rendered (while it is being
// sent) must not reach the renderer: React would close its finished stream
// again and throw from the abort listener, an uncaught error in the server.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type ServerBuild, createRequestHandler } from "@remix-run/node";
import { beforeAll, expect, it } from "vitest";
import { resetDatabase } from "../helpers";

let handle: (request: Request) => Promise<Response>;

beforeAll(async () => {
  // The built server (npm test builds first), as remix-serve runs it.
  const build = (await import(/* @vite-ignore */ pathToFileURL(path.resolve("build/index.js")).href)) as ServerBuild;
  handle = createRequestHandler(build, "production");
  await resetDatabase();
});

it("a disconnect after the page is rendered leaves the renderer alone", async () => {
  const uncaught: unknown[] = [];
  const onError = (error: unknown) => uncaught.push(error);
  process.on("uncaughtException", onError);
  try {
    for (const page of ["/", "/aktualnosci", "/galeria", "/kontakt"]) {
      const client = new AbortController();
      const res = await handle(new Request(`http://localhost${page}`, { signal: client.signal }));
      expect(res.status).toBe(200);
      // The answer is made; the client disconnects while it is being sent.
      client.abort();
      await res.text();
    }
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    process.off("uncaughtException", onError);
  }
  expect(uncaught).toEqual([]);
});
