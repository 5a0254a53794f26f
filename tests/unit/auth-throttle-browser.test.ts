// Without a trusted proxy the client address is unknown (remix-serve does not
// pass it on, and X-Forwarded-For is then the client's own word): sign-in
// failures are counted per browser, so a stranger cannot lock the pastor out.
import { beforeEach, expect, it } from "vitest";
import { request, resetDatabase, settle } from "../helpers";

delete process.env.TRUST_PROXY;

const { LOGIN_LIMITS } = await import("~/features/auth/sign-in-limits.server");
const { action, loader } = await import("~/routes/strefapastora.logowanie");
const { ORIGIN, PASTOR, addPastor, cookieHeader, cookiesFrom } = await import("../auth-helpers");

beforeEach(async () => {
  await resetDatabase();
  await addPastor();
});

/** A browser: opens the login page once and keeps its cookie between attempts. */
async function browser() {
  const page = await settle(() => loader({ request: request("/strefapastora/logowanie"), params: {}, context: {} }));
  const { csrf } = await page.json();
  const cookie = cookieHeader(cookiesFrom(page));
  return (password: string) =>
    settle(() =>
      action({
        request: request("/strefapastora/logowanie", {
          method: "POST",
          body: new URLSearchParams({ csrf, email: PASTOR.email, password }),
          headers: { Origin: ORIGIN, Cookie: cookie, "X-Forwarded-For": "198.51.100.9" },
        }),
        params: {},
        context: {},
      }),
    );
}

it("locks the browser that failed five times, not the pastor's", async () => {
  const stranger = await browser();
  for (let i = 0; i < LOGIN_LIMITS.perIpAndEmail; i++) expect((await stranger(`zle-haslo-${i}`)).status).toBe(400);
  const locked = await stranger(PASTOR.password);
  expect(locked.status).toBe(429);
  expect((await locked.json()).error).toMatch(/^Zbyt wiele nieudanych prób logowania/);

  const pastor = await browser();
  const res = await pastor(PASTOR.password);
  expect(res.status).toBe(302);
  expect(res.headers.get("Location")).toBe("/strefapastora");
});
