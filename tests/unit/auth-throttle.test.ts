// Brute-force limits of the login page, through the real route and a moving
// clock. The client address is the one the front door hands over; every
// attempt opens a fresh login page (a new form cookie), as a script would.
import type { IncomingMessage } from "node:http";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resetDatabase } from "../helpers";

delete process.env.TRUST_PROXY;
// The cap on concurrent password checks is seen only at the real argon2 cost.
delete process.env.ARGON2_TEST_CHEAP;

const { clock } = await import("~/services/clock.server");
const { LOGIN_LIMITS, addressKey, perEmailDelayMs } = await import("~/features/auth/sign-in-limits.server");
const { clientAddressOf } = await import("~/http/front-door.server");
const { db } = await import("~/services/db.server");
const { activityLog, loginFailures } = await import("~/services/schema");
const { PASTOR, addPastor, cookieHeader, cookiesFrom, submitLogin } = await import("../auth-helpers");

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

const wrong = { email: PASTOR.email, password: "zle-haslo-000" };

async function fail(times: number, address: string, email = PASTOR.email) {
  for (let i = 0; i < times; i++) {
    const res = await submitLogin({ email, password: `zle-haslo-${i}` }, { address });
    expect(res.status, `failure ${i + 1} from ${address}`).toBe(400);
  }
}

describe("client address", () => {
  const req = (remoteAddress: string, xff?: string) =>
    ({ socket: { remoteAddress }, headers: xff ? { "x-forwarded-for": xff } : {} }) as unknown as IncomingMessage;

  it("is the socket's unless the proxy is trusted", () => {
    expect(clientAddressOf(req("::ffff:192.0.2.5", "198.51.100.7"), false)).toBe("192.0.2.5");
    expect(clientAddressOf(req("192.0.2.5"), true)).toBe("192.0.2.5");
  });

  it("behind a trusted proxy, is the entry the proxy appended, not one the client wrote", () => {
    expect(clientAddressOf(req("10.0.0.1", "1.2.3.4, 198.51.100.7"), true)).toBe("198.51.100.7");
    expect(clientAddressOf(req("10.0.0.1", "198.51.100.7, nonsense"), true)).toBe("10.0.0.1");
  });

  it("counts an IPv6 client by its /64 network", () => {
    expect(addressKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2::ffff")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("192.0.2.5")).toBe("192.0.2.5");
    expect(addressKey(null)).toBe("unknown");
  });
});

describe("per address", () => {
  it("refuses the sixth of 60 failed sign-ins from one address, each with a fresh cookie", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      statuses.push((await submitLogin({ ...wrong, password: `zgadywane-${i}` }, { address: "198.51.100.1" })).status);
    }
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses.slice(5)).toEqual(Array(55).fill(429));

    // Even the right password, from that address.
    const refused = await submitLogin(PASTOR, { address: "198.51.100.1" });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: "Zbyt wiele nieudanych prób logowania. Spróbuj ponownie za 15 min.",
      email: PASTOR.email,
    });
    expect(Number(refused.headers.get("Retry-After"))).toBe(15 * 60);

    // The pastor, from a second address, gets in while the first is locked.
    const pastor = await submitLogin(PASTOR, { address: "203.0.113.9" });
    expect(pastor.status).toBe(302);
    expect(pastor.headers.get("Location")).toBe("/strefapastora");
    expect((await submitLogin(PASTOR, { address: "198.51.100.1" })).status).toBe(429);
  });

  it("locks for 15 minutes from the failure that reached the limit", async () => {
    await fail(5, "198.51.100.1");
    now += 1 * MIN;
    const refused = await submitLogin(PASTOR, { address: "198.51.100.1" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBe(14 * 60);
    // Another e-mail from that address still has its own five tries.
    expect((await submitLogin({ email: "inny@example.org", password: "x" }, { address: "198.51.100.1" })).status).toBe(
      400,
    );

    now += 14 * MIN - 1000; // 1 s before the lockout ends
    expect((await submitLogin(PASTOR, { address: "198.51.100.1" })).status).toBe(429);
    now += 1000;
    expect((await submitLogin(PASTOR, { address: "198.51.100.1" })).status).toBe(302);
  });

  it("counts an IPv6 /64 as one address", async () => {
    for (let i = 0; i < 5; i++) await fail(1, `2001:db8:5:6::${i + 1}`);
    expect((await submitLogin(PASTOR, { address: "2001:db8:5:6::99" })).status).toBe(429);
    expect((await submitLogin(PASTOR, { address: "2001:db8:5:7::1" })).status).toBe(302);
  });

  it("counts only failures within 15 minutes", async () => {
    await fail(4, "198.51.100.1");
    now += LOGIN_LIMITS.windowMs + 1000;
    await fail(4, "198.51.100.1");
    expect((await submitLogin(PASTOR, { address: "198.51.100.1" })).status).toBe(302);
  });

  it("a successful sign-in clears that address's failures for the e-mail", async () => {
    await fail(4, "198.51.100.1");
    expect((await submitLogin(PASTOR, { address: "198.51.100.1" })).status).toBe(302);
    await fail(4, "198.51.100.1");
    expect((await submitLogin(PASTOR, { address: "198.51.100.1" })).status).toBe(302);
  });

  it("after 20 failures across e-mails refuses that address for every e-mail", async () => {
    for (let i = 0; i < LOGIN_LIMITS.perAddress; i++) await fail(1, "198.51.100.3", `osoba${i}@example.org`);
    const res = await submitLogin(PASTOR, { address: "198.51.100.3" });
    expect(res.status).toBe(429);
    expect((await res.json()).error).toMatch(/^Zbyt wiele nieudanych prób logowania/);
  });

  it("lets no more than 5 parallel guesses reach the password check", async () => {
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        submitLogin({ ...wrong, password: `rownolegle-${i}` }, { address: "198.51.100.4" }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 400 || s === 429)).toBe(true);
    // Those refused did not count; later tries fill the five at most.
    for (let i = 0; i < 10; i++) {
      statuses.push((await submitLogin({ ...wrong, password: `potem-${i}` }, { address: "198.51.100.4" })).status);
    }
    expect(statuses.filter((s) => s === 400).length).toBe(LOGIN_LIMITS.perAddressAndEmail);
    expect((await submitLogin(PASTOR, { address: "198.51.100.4" })).status).toBe(429);
    // Refusals arriving at once still make one line of the history for the address.
    const lines = await (
      await db()
    )
      .select({ action: activityLog.action, address: activityLog.address })
      .from(activityLog);
    expect(lines.filter((l) => l.action === "sign_in_refused")).toEqual([
      { action: "sign_in_refused", address: "198.51.100.4" },
    ]);
  });

  it("refuses the same way whether or not the e-mail exists", async () => {
    await fail(5, "198.51.100.30", "nieistnieje@example.org");
    const res = await submitLogin({ email: "nieistnieje@example.org", password: "x" }, { address: "198.51.100.30" });
    expect(res.status).toBe(429);
  });
});

describe("an e-mail attacked from many addresses", () => {
  const SPACING = 40 * 1000;
  /** Failures from `count` different addresses, each after the delay the one before imposed. */
  async function attack(count: number) {
    for (let i = 0; i < count; i++) {
      await fail(1, `192.0.2.${i + 1}`);
      now += SPACING;
    }
  }

  it("is slowed by a growing delay, never locked", async () => {
    expect([9, 10, 11, 12, 30].map(perEmailDelayMs)).toEqual([0, 1000, 2000, 4000, LOGIN_LIMITS.perEmailMaxDelayMs]);
    await attack(LOGIN_LIMITS.perEmailFree + 3); // the next waits 8 s after the last failure
    now -= SPACING;
    const slowed = await submitLogin(PASTOR, { address: "198.51.100.20" });
    expect(slowed.status).toBe(429);
    expect((await slowed.json()).error).toBe("Zbyt wiele prób logowania na to konto. Spróbuj ponownie za 8 s.");
    expect(slowed.headers.get("Retry-After")).toBe("8");

    // Once the delay has passed, the pastor, from an address of his own, gets in.
    now += 8 * 1000;
    expect((await submitLogin(PASTOR, { address: "198.51.100.20" })).status).toBe(302);
  });

  it("never waits longer than the cap, however many the failures", async () => {
    const d = await db();
    for (let i = 0; i < 200; i++) {
      await d.insert(loginFailures).values({ address: `192.0.2.${i}`, email: PASTOR.email, at: new Date(now - 1000) });
    }
    const slowed = await submitLogin(PASTOR, { address: "198.51.100.20" });
    expect(slowed.status).toBe(429);
    expect((await slowed.json()).error).toBe("Zbyt wiele prób logowania na to konto. Spróbuj ponownie za 5 min.");
    now += LOGIN_LIMITS.perEmailMaxDelayMs;
    expect((await submitLogin(PASTOR, { address: "198.51.100.20" })).status).toBe(302);
  });

  it("does not slow the browser the pastor signed in from before", async () => {
    const first = await submitLogin(PASTOR, { address: "198.51.100.20" });
    expect(first.status).toBe(302);
    const device = cookiesFrom(first).device;
    expect(device).toBeTruthy();

    await attack(LOGIN_LIMITS.perEmailFree + 5);
    now -= SPACING; // right after the last failure
    const stranger = await submitLogin(PASTOR, { address: "198.51.100.21" });
    expect(stranger.status).toBe(429);
    const withToken = await submitLogin(PASTOR, {
      address: "198.51.100.21",
      headers: { Cookie: cookieHeader({ device }) },
    });
    expect(withToken.status).toBe(302);
  });

  it("slows a browser whose device token is forged or for another account", async () => {
    await attack(LOGIN_LIMITS.perEmailFree + 5);
    now -= SPACING; // right after the last failure
    const unsigned = Buffer.from(JSON.stringify({ email: PASTOR.email })).toString("base64");
    const forged = await submitLogin(PASTOR, {
      address: "198.51.100.21",
      headers: { Cookie: cookieHeader({ device: encodeURIComponent(`${unsigned}.${"A".repeat(43)}`) }) },
    });
    expect(forged.status).toBe(429);

    await addPastor({ email: "drugi@example.org" });
    const other = await submitLogin(
      { email: "drugi@example.org", password: PASTOR.password },
      { address: "198.51.100.22" },
    );
    const otherDevice = cookiesFrom(other).device;
    const wrongAccount = await submitLogin(PASTOR, {
      address: "198.51.100.21",
      headers: { Cookie: cookieHeader({ device: otherDevice }) },
    });
    expect(wrongAccount.status).toBe(429);
  });

  it("does not slow other e-mails", async () => {
    await addPastor({ email: "drugi@example.org" });
    await attack(LOGIN_LIMITS.perEmailFree + 5);
    now -= SPACING; // right after the last failure
    const res = await submitLogin(
      { email: "drugi@example.org", password: PASTOR.password },
      { address: "198.51.100.21" },
    );
    expect(res.status).toBe(302);
  });
});

describe("password checks", () => {
  it("run at most ARGON2_CONCURRENCY at once, whatever the e-mails", async () => {
    const { ARGON2_CONCURRENCY, argon2Load, verifyLogin } = await import("~/features/auth/users.server");
    const checks = Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        verifyLogin({ email: i % 2 ? PASTOR.email : `ktos${i}@example.org`, password: `zgadywane-${i}` }),
      ),
    );
    let done = false;
    void checks.finally(() => (done = true));
    let maxActive = 0;
    let maxWaiting = 0;
    while (!done) {
      const { active, waiting } = argon2Load();
      maxActive = Math.max(maxActive, active);
      maxWaiting = Math.max(maxWaiting, waiting);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await checks).toEqual(Array(8).fill(null));
    expect(maxActive).toBe(ARGON2_CONCURRENCY);
    expect(maxWaiting).toBeGreaterThan(0);
  });
});
