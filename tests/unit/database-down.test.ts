// A database that cannot be reached is a typed error, not an HTTP answer:
// models and commands can tell it apart, and the server's entry turns it
// into a Polish 503 (tests/faults/database-restart.test.ts).
import { expect, it } from "vitest";
import { DatabaseUnavailableError, closeDb, withDb } from "~/services/db.server";

// Nothing listens on port 1.
process.env.DATABASE_URL = "postgres://postgres@127.0.0.1:1/none";

it("is a DatabaseUnavailableError carrying the driver's code, from a query and from a page's loader", async () => {
  await closeDb();
  const query = withDb(async () => "never");
  await expect(query).rejects.toBeInstanceOf(DatabaseUnavailableError);
  await expect(query).rejects.toMatchObject({ code: "ECONNREFUSED" });

  const { loader: news } = await import("~/routes/aktualnosci._index");
  await expect(
    news({ request: new Request("http://localhost/aktualnosci"), params: {}, context: {} }),
  ).rejects.toBeInstanceOf(DatabaseUnavailableError);
});

it("makes /readyz answer 503 until the server has booted", async () => {
  const { loader: ready } = await import("~/routes/readyz");
  const res = await ready();
  expect(res.status).toBe(503);
  expect(await res.json()).toEqual({ status: "starting" });
});
