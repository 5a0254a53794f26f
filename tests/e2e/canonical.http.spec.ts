import { expect, test } from "./fixtures";

test("every spelling of a public page answers 301 to its one address, keeping the query", async ({ request }) => {
  for (const spelling of [
    "/Aktualnosci",
    "/%61ktualnosci",
    "/aktualnosci/",
    "/aktualnosci//",
    "/AKTUALNOSCI/?strona=1",
  ]) {
    const answer = await request.get(spelling, { maxRedirects: 0 });
    expect(answer.status(), spelling).toBe(301);
    const expected = spelling.includes("?") ? "/aktualnosci?strona=1" : "/aktualnosci";
    expect(answer.headers()["location"], spelling).toBe(expected);
  }
  const canonical = await request.get("/aktualnosci", { maxRedirects: 0 });
  expect(canonical.status()).toBe(200);
});

test("a spelling of an address that names no page goes to its canonical spelling, and no further", async ({
  request,
}) => {
  const answer = await request.get("/Nie-ma-takiej/", { maxRedirects: 0 });
  expect(answer.status()).toBe(301);
  expect(answer.headers()["location"]).toBe("/Nie-ma-takiej");
  expect((await request.get("/Nie-ma-takiej", { maxRedirects: 0 })).status()).not.toBe(301);
});
