// In production the session cookie is Secure and host-only.
import { beforeAll, expect, it } from "vitest";

process.env.NODE_ENV = "production";
process.env.SESSION_SECRET = "production-test-secret-0123456789abcdef";

const { PASTOR, addPastor, openLoginPage, setCookieLine, submitLogin } = await import("../auth-helpers");
const { resetDatabase } = await import("../helpers");
const { config } = await import("~/services/config.server");

beforeAll(async () => {
  await resetDatabase();
  await addPastor();
});

it("sets the session cookie HttpOnly, SameSite=Lax and Secure, under the __Host- prefix", async () => {
  expect(config().isProduction).toBe(true);
  const res = await submitLogin(PASTOR);
  expect(res.status).toBe(302);
  const line = setCookieLine(res, "__Host-session")!;
  expect(line).toBeDefined();
  for (const flag of [/; HttpOnly/, /; Secure/, /; SameSite=Lax/, /; Path=\//]) expect(line).toMatch(flag);
  expect(line).not.toMatch(/Domain=/i);
});

it("marks the login form's cookie Secure too", async () => {
  const { res } = await openLoginPage();
  expect(setCookieLine(res, "login_token")).toMatch(/; Secure/);
});

it("sets the device token HttpOnly, SameSite=Lax and Secure, for the pastor area, for a year", async () => {
  const res = await submitLogin(PASTOR);
  expect(res.status).toBe(302);
  const line = setCookieLine(res, "device")!;
  expect(line).toBeDefined();
  // The area's path, so the sign-in form's single-fetch post (/strefapastora/logowanie.data) carries it too.
  for (const flag of [/; HttpOnly/, /; Secure/, /; SameSite=Lax/, /; Path=\/strefapastora(;|$)/]) {
    expect(line).toMatch(flag);
  }
  expect(line).toMatch(/; Max-Age=31536000/);
});
