// Behind a proxy (TRUST_PROXY=1) the built server reads X-Forwarded-Host:
// a value no proxy would send (an impossible port, letters for a port,
// stray characters) gets the Polish 400 page, never Express's 500 with a
// stack; a good one is served.
import http from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createScratchDatabase, postgresAvailable } from "../setup/database";
import { type RunningServer, startBuiltServer } from "./server";

let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
let server: RunningServer;

beforeAll(async () => {
  if (await postgresAvailable()) scratch = await createScratchDatabase("trustedproxy");
  server = await startBuiltServer({ DATABASE_URL: scratch?.url ?? "memory:", TRUST_PROXY: "1", PUBLIC_URL: "" });
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await scratch?.drop();
});

function get(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .get(
        { host: "127.0.0.1", port: server.port, path, headers: { host: `127.0.0.1:${server.port}`, ...headers } },
        (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => (body += d));
          res.on("end", () => resolve({ status: res.statusCode!, body }));
        },
      )
      .on("error", reject);
  });
}

it("answers an X-Forwarded-Host no proxy sends with the Polish 400, and serves a good one", async () => {
  for (const path of ["/", "/aktualnosci", "/strefapastora/logowanie"]) {
    for (const host of ["x:99999", "x:0", "x:65536", "x:abc", `${"a".repeat(40)}!`, "zbor.example.org:99999, proxy"]) {
      const res = await get(path, { "X-Forwarded-Host": host });
      expect(res.status, `${path} ${host}`).toBe(400);
      expect(res.body).toContain("Nieprawidłowe żądanie");
    }
  }
  const good = await get("/aktualnosci", { "X-Forwarded-Host": "zbor.example.org", "X-Forwarded-Proto": "https" });
  expect(good.status).toBe(200);
  expect(server.output()).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
});
