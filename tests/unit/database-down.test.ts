// A database that cannot be reached gives a 503 the error page renders in Polish.
import { expect, it } from "vitest";
import { settle } from "../helpers";

// Nothing listens on port 1.
process.env.DATABASE_URL = "postgres://postgres@127.0.0.1:1/none";

it("answers 503 instead of a stack trace, and /healthz says so", async () => {
  const { closeDb } = await import("~/db.server");
  await closeDb();
  const { loader: news } = await import("~/routes/aktualnosci._index");
  const { loader: health } = await import("~/routes/healthz");
  const res = await settle(() => news());
  expect(res.status).toBe(503);
  expect(await res.text()).toBe("Baza danych jest chwilowo niedostępna.");
  expect((await settle(() => health())).status).toBe(503);
});
