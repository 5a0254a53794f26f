// The built server against a PostgreSQL cluster this test owns: the database
// is stopped during a load of 20 connections and started again. The page
// under load stays in the page cache; a page not kept answers a Polish 503
// while it is down; both recover by themselves within 5 s.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clusterAvailable, createCluster } from "./cluster";
import { freePort, type RunningServer, startBuiltServer } from "./server";

let cluster: Awaited<ReturnType<typeof createCluster>>;
let server: RunningServer;

beforeAll(async () => {
  cluster = await createCluster(await freePort());
  server = await startBuiltServer({ DATABASE_URL: cluster.url });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  cluster?.destroy();
});

interface Sample {
  at: number;
  status: number;
}

async function load(base: string, connections: number, until: () => boolean, samples: Sample[]) {
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (!until()) {
        let status = 0;
        try {
          const res = await fetch(`${base}/aktualnosci`, { signal: AbortSignal.timeout(10_000) });
          await res.arrayBuffer();
          status = res.status;
        } catch {
          status = 0; // connection refused or timed out: counts as an error
        }
        samples.push({ at: Date.now(), status });
      }
    }),
  );
}

describe.runIf(clusterAvailable)("database outage", () => {
  it("serves kept pages and answers 503 in Polish for others while the database is down; recovers within 5 s without a restart", async () => {
    const samples: Sample[] = [];
    let done = false;
    const running = load(server.base, 20, () => done, samples);

    const t0 = Date.now();
    const mark = (what: string) => process.stderr.write(`[outage] ${what} +${Date.now() - t0} ms\n`);
    await new Promise((r) => setTimeout(r, 1_500));
    mark("stopping");
    cluster.stop();
    mark("stopped");
    const stoppedAt = Date.now();
    await new Promise((r) => setTimeout(r, 2_000));

    mark("probing");
    const down = await fetch(`${server.base}/galeria`);
    mark("probed");
    expect(down.status).toBe(503);
    expect(await down.text()).toContain("Serwis chwilowo niedostępny");
    // Alive, and ready while it holds pages to serve; the dependencies check is what alerts.
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ database: "unavailable", storage: "ok" });
    const dependencies = await fetch(`${server.base}/healthz/dependencies`);
    expect(dependencies.status).toBe(503);
    expect(await dependencies.json()).toEqual({ database: "unavailable", storage: "ok" });

    mark("starting");
    cluster.start();
    mark("started");
    const backAt = Date.now();
    await new Promise((r) => setTimeout(r, 8_000));
    done = true;
    await running;
    mark("load finished");

    const before = samples.filter((s) => s.at < stoppedAt);
    const during = samples.filter((s) => s.at >= stoppedAt && s.at < backAt);
    const after = samples.filter((s) => s.at >= backAt);
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((s) => s.status === 200)).toBe(true);
    // While down: the kept page, never an error.
    expect(during.every((s) => s.status === 200)).toBe(true);
    expect(after.every((s) => s.status === 503 || s.status === 200)).toBe(true);
    // Recovered when the last error was answered; nothing fails after that.
    const lastError = after.filter((s) => s.status !== 200).at(-1);
    const recovery = (lastError?.at ?? backAt) - backAt;
    expect(recovery).toBeLessThanOrEqual(5_000);
    const afterRecovery = after.filter((s) => s.at > backAt + recovery);
    expect(afterRecovery.length).toBeGreaterThan(100);
    expect((await fetch(`${server.base}/readyz`)).status).toBe(200);
    expect((await fetch(`${server.base}/healthz/dependencies`)).status).toBe(200);
    console.log(
      `outage: ${before.length} ok before, ${during.length} during (${during.filter((s) => s.status === 503).length} × 503), ` +
        `last error ${recovery} ms after the database came back, ${afterRecovery.length} ok after`,
    );
  }, 90_000);
});
