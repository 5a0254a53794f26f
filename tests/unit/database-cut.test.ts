// A query meets a database that went away behind a proxy: it fails with a
// DatabaseUnavailableError, never waits for the database to return. The
// proxy hanging up every new connection before the server says a word made
// postgres.js reconnect at once, forever, with the query held (a request
// that met the outage hung); a network that answers nothing is given up
// after connect_timeout (5 s).
import { afterAll, expect, it } from "vitest";
import { startTcpProxy, throughProxy } from "../tcp-proxy";

const realUrl = process.env.DATABASE_URL!;
const postgres = realUrl.startsWith("postgres");
const proxy = postgres ? await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(realUrl).port || 5432) }) : null;
if (proxy) process.env.DATABASE_URL = throughProxy(realUrl, proxy.port);

const { DatabaseUnavailableError, closeDb, withDb } = await import("~/services/db.server");
const { sql } = await import("drizzle-orm");

afterAll(async () => {
  await closeDb();
  await proxy?.close();
});

const ping = () => withDb((db) => db.execute(sql`select 1`));

it.runIf(postgres)("fails at once when the line is cut, and works again when it is back", async () => {
  await ping();
  proxy!.cut();
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await expect(ping()).rejects.toBeInstanceOf(DatabaseUnavailableError);
    expect(performance.now() - started).toBeLessThan(1_000);
  }
  proxy!.restore();
  // Reconnects are tried every 250 ms.
  await new Promise((r) => setTimeout(r, 300));
  await ping();
});

it.runIf(postgres)(
  "gives up on a database that answers nothing after connect_timeout",
  async () => {
    proxy!.stall();
    try {
      // The pool's open connection was ended: the first query learns it at once.
      await expect(ping()).rejects.toBeInstanceOf(DatabaseUnavailableError);
      const started = performance.now();
      await expect(ping()).rejects.toMatchObject({ code: "CONNECT_TIMEOUT" });
      expect(performance.now() - started).toBeLessThan(8_000);
    } finally {
      proxy!.restore();
    }
    await new Promise((r) => setTimeout(r, 300));
    await ping();
  },
  20_000,
);
