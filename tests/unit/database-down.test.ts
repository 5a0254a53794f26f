// A database that cannot be reached gives a 503 the error page renders in Polish.
import { expect, it } from "vitest";
import { settle } from "../helpers";

// Nothing listens on port 1.
process.env.DATABASE_URL = "postgres://postgres@127.0.0.1:1/none";

it("answers 503 instead of a stack trace, and /readyz says so", async () => {
  const { closeDb } = await import("~/services/db.server");
  await closeDb();
  const { loader: news } = await import("~/routes/aktualnosci._index");
  const { loader: ready } = await import("~/routes/readyz");
  const res = await settle(() => news({ request: new Request("http://localhost/aktualnosci"), params: {}, context: {} }));
  expect(res.status).toBe(503);
  expect(await res.text()).toBe("Baza danych jest chwilowo niedostępna.");
  const readiness = await settle(() => ready());
  expect(readiness.status).toBe(503);
  expect(await readiness.json()).toEqual({ database: "unavailable", storage: "ok" });
});
