// Brute-force limits of the login page, through the real route and a
// moving clock. X-Forwarded-For names the client here (TRUST_PROXY).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { request, resetDatabase } from "../helpers";

process.env.TRUST_PROXY = "1";

const { clock } = await import("~/services/clock.server");
const { LOGIN_LIMITS, clientIp } = await import("~/features/auth/sign-in-limits.server");
const { PASTOR, addPastor, submitLogin } = await import("../auth-helpers");

const MIN = 60 * 1000;
let now = Date.parse("2025-05-01T08:00:00Z");

beforeEach(async () => {
  await resetDatabase();
  await addPastor();
  now = Date.parse("2025-05-01T08:00:00Z");
  vi.spyOn(clock, "now").mockImplementation(() => new Date(now));
});
afterEach(() => {
  vi.restoreAllMocks();
});

const from = (ip: string) => ({ headers: { "X-Forwarded-For": `203.0.113.250, ${ip}` } });
const wrong = { email: PASTOR.email, password: "zle-haslo-000" };

async function fail(times: number, ip: string, email = PASTOR.email) {
  for (let i = 0; i < times; i++) {
    const res = await submitLogin({ email, password: `zle-haslo-${i}` }, from(ip));
    expect(res.status, `failure ${i + 1} from ${ip}`).toBe(400);
  }
}

describe("client IP", () => {
  const req = (xff?: string) => request("/", { headers: xff ? { "X-Forwarded-For": xff } : {} });

  it("ignores X-Forwarded-For unless the proxy is trusted", () => {
    expect(clientIp(req("198.51.100.7"), false)).toBe("local");
    expect(clientIp(req(), true)).toBe("local");
  });

  it("takes the entry the trusted proxy appended, not one the client wrote", () => {
    expect(clientIp(req("1.2.3.4, 198.51.100.7"), true)).toBe("198.51.100.7");
    expect(clientIp(req("::ffff:198.51.100.7"), true)).toBe("198.51.100.7");
    expect(clientIp(req("2001:db8::1"), true)).toBe("2001:db8::1");
    expect(clientIp(req("198.51.100.7, nonsense"), true)).toBe("local");
  });
});

describe("lockout per IP", () => {
  it("after 5 failures for one e-mail refuses even the right password for 15 minutes", async () => {
    await fail(5, "198.51.100.1");
    now += 1 * MIN;
    const refused = await submitLogin(PASTOR, from("198.51.100.1"));
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: "Zbyt wiele nieudanych prób logowania. Spróbuj ponownie za 14 min.",
      email: PASTOR.email,
    });
    expect(Number(refused.headers.get("Retry-After"))).toBe(14 * 60);
    // Other e-mails from that IP are refused too.
    expect((await submitLogin({ email: "inny@example.org", password: "x" }, from("198.51.100.1"))).status).toBe(429);
    // Another client is not affected.
    expect((await submitLogin(PASTOR, from("198.51.100.2"))).status).toBe(302);

    now += 14 * MIN - 1000; // 1 s before the lockout ends
    expect((await submitLogin(PASTOR, from("198.51.100.1"))).status).toBe(429);
    now += 1000;
    expect((await submitLogin(PASTOR, from("198.51.100.1"))).status).toBe(302);
  });

  it("counts only failures within 15 minutes", async () => {
    await fail(4, "198.51.100.1");
    now += LOGIN_LIMITS.windowMs + 1000;
    await fail(4, "198.51.100.1");
    expect((await submitLogin(PASTOR, from("198.51.100.1"))).status).toBe(302);
  });

  it("a successful sign-in clears that IP's failures for the e-mail", async () => {
    await fail(4, "198.51.100.1");
    expect((await submitLogin(PASTOR, from("198.51.100.1"))).status).toBe(302);
    await fail(4, "198.51.100.1");
    expect((await submitLogin(PASTOR, from("198.51.100.1"))).status).toBe(302);
  });

  it("after 20 failures across e-mails refuses that IP", async () => {
    for (let i = 0; i < 20; i++) await fail(1, "198.51.100.3", `osoba${i}@example.org`);
    const res = await submitLogin(PASTOR, from("198.51.100.3"));
    expect(res.status).toBe(429);
    expect((await res.json()).error).toMatch(/^Zbyt wiele nieudanych prób logowania/);
  });

  it("lets no more than 5 parallel guesses reach the password check", async () => {
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        submitLogin({ ...wrong, password: `rownolegle-${i}` }, from("198.51.100.4")),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(LOGIN_LIMITS.perIpAndEmail);
    expect(statuses.every((s) => s === 400 || s === 429)).toBe(true);
    expect((await submitLogin(PASTOR, from("198.51.100.4"))).status).toBe(429);
  });
});

describe("an e-mail attacked from many IPs", () => {
  it("is slowed to one attempt per 30 s, never locked", async () => {
    for (let i = 0; i < LOGIN_LIMITS.perEmailSlowdown; i++) {
      await fail(1, `192.0.2.${i + 1}`);
      now += 1000;
    }
    // 1 s after the last failure: wait.
    const slowed = await submitLogin(PASTOR, from("198.51.100.20"));
    expect(slowed.status).toBe(429);
    expect((await slowed.json()).error).toBe("Zbyt wiele prób logowania na to konto. Spróbuj ponownie za 29 s.");
    expect(slowed.headers.get("Retry-After")).toBe("29");

    now += 29 * 1000;
    // The pastor, from an IP of their own, gets in.
    expect((await submitLogin(PASTOR, from("198.51.100.20"))).status).toBe(302);

    // The attacker gets one guess per 30 s.
    expect((await submitLogin(wrong, from("192.0.2.200"))).status).toBe(400);
    now += 10 * 1000;
    expect((await submitLogin(wrong, from("192.0.2.201"))).status).toBe(429);
    now += 20 * 1000;
    expect((await submitLogin(wrong, from("192.0.2.202"))).status).toBe(400);
  });

  it("does not slow other e-mails", async () => {
    await addPastor({ email: "drugi@example.org" });
    for (let i = 0; i < LOGIN_LIMITS.perEmailSlowdown; i++) await fail(1, `192.0.2.${i + 1}`);
    const res = await submitLogin({ email: "drugi@example.org", password: PASTOR.password }, from("198.51.100.21"));
    expect(res.status).toBe(302);
  });
});

it("refuses the same way whether or not the e-mail exists", async () => {
  await fail(5, "198.51.100.30", "nieistnieje@example.org");
  const res = await submitLogin({ email: "nieistnieje@example.org", password: "x" }, from("198.51.100.30"));
  expect(res.status).toBe(429);
});
