// The pastor's second factor against the real database: setting it up with
// a first code, signing in through the real login route with a code or a
// recovery code, replays refused, wrong codes counted by the sign-in limits,
// turning it off. Codes are computed with the same library an app would
// mirror; the system time is moved (Date only) to reach the next code.
import { sampleFacts } from "~/content/church";
import { readFacts, saveFacts } from "~/features/church/facts.server";
import { createHash } from "node:crypto";
import { generateTOTP } from "@epic-web/totp";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { request, resetDatabase, settle } from "../helpers";
import { ORIGIN, PASTOR, addPastor, cookieHeader, cookiesFrom, fromAddress, openLoginPage } from "../auth-helpers";

const {
  cancelTwoFactorSetup,
  confirmTwoFactorSetup,
  disableTwoFactor,
  regenerateRecoveryCodes,
  resetTwoFactor,
  startTwoFactorSetup,
  twoFactorEnabled,
  twoFactorState,
  verifySecondFactor,
} = await import("~/features/auth/two-factor.server");
const { action: loginAction, loader: loginLoader } = await import("~/routes/strefapastora.logowanie");
const { readSession } = await import("~/features/auth/session.server");
const { db } = await import("~/services/db.server");
const { recoveryCodes, sessions } = await import("~/services/schema");

const START = Date.parse("2025-05-01T08:00:10Z");
let userId: number;

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(START);
  await resetDatabase();
  userId = (await addPastor()).id;
});
afterEach(() => {
  vi.useRealTimers();
});

/** The code an authenticator app shows now. */
const codeOf = async (secret: string) =>
  (await generateTOTP({ secret, period: 30, digits: 6, algorithm: "SHA-1" })).otp;
/** On to the next 30-second step, where the app shows a new code. */
const nextStep = () => vi.setSystemTime(Date.now() + 30_000);

async function enable(): Promise<{ secret: string; recovery: string[] }> {
  expect(await startTwoFactorSetup(userId)).toBe(true);
  const secret = (await twoFactorState(userId)).setup!.secret;
  const recovery = await confirmTwoFactorSetup({ userId, code: await codeOf(secret) });
  expect(recovery).toHaveLength(10);
  nextStep();
  return { secret, recovery: recovery! };
}

/** A browser's cookie jar through the two steps of the login page. */
async function passwordStep(address = "127.0.0.1") {
  const { res: page, data } = await openLoginPage();
  const jar = cookiesFrom(page);
  const res = await post(jar, { csrf: data!.csrf, ...PASTOR, redirectTo: "/strefapastora/galeria" }, address);
  Object.assign(jar, cookiesFrom(res));
  return { res, jar, csrf: data!.csrf };
}

function post(jar: Record<string, string>, fields: Record<string, string>, address = "127.0.0.1") {
  return settle(() =>
    fromAddress(address, () =>
      loginAction({
        request: request("/strefapastora/logowanie", {
          method: "POST",
          body: new URLSearchParams(fields),
          headers: { Origin: ORIGIN, Cookie: cookieHeader(jar) },
        }),
        params: {},
        context: {},
      }),
    ),
  );
}

async function codeStep(step: { jar: Record<string, string>; csrf: string }, code: string, address = "127.0.0.1") {
  return post(step.jar, { csrf: step.csrf, intent: "code", code }, address);
}

describe("setting up", () => {
  it("shows a QR code of an otpauth address and turns on only with a right first code", async () => {
    expect(await startTwoFactorSetup(userId)).toBe(true);
    const { setup, enabledAt } = await twoFactorState(userId);
    expect(enabledAt).toBeNull();
    expect(setup!.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup!.uri).toBe(
      `otpauth://totp/Zb%C3%B3r%20w%20Wieliczce:pastor%40example.org?secret=${setup!.secret}` +
        "&issuer=Zb%C3%B3r+w+Wieliczce&algorithm=SHA1&digits=6&period=30",
    );
    expect(setup!.qrSvg).toMatch(/^<svg/);

    // The apps list the account under the congregation's own short name, from 'Dane zboru'.
    const { version } = await readFacts();
    expect((await saveFacts({ headerLine2: "Zbór w Niepołomicach" }, { baseVersion: version, actor: null })).ok).toBe(
      true,
    );
    expect((await twoFactorState(userId)).setup!.uri).toContain("&issuer=Zb%C3%B3r+w+Niepo%C5%82omicach&");
    await saveFacts({ headerLine2: sampleFacts.headerLine2 }, { baseVersion: version + 1, actor: null });

    const wrong = (Number(await codeOf(setup!.secret)) + 1) % 1_000_000;
    expect(await confirmTwoFactorSetup({ userId, code: String(wrong).padStart(6, "0") })).toBeNull();
    expect(await twoFactorEnabled(userId)).toBe(false);

    const codes = await confirmTwoFactorSetup({ userId, code: await codeOf(setup!.secret) });
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes!) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const state = await twoFactorState(userId);
    expect(state).toMatchObject({ setup: null, recoveryCodesLeft: 10 });
    expect(state.enabledAt).toBeInstanceOf(Date);
    // Set up once: a second start does nothing.
    expect(await startTwoFactorSetup(userId)).toBe(false);
  });

  it("can be abandoned before the first code", async () => {
    await startTwoFactorSetup(userId);
    await cancelTwoFactorSetup(userId);
    expect((await twoFactorState(userId)).setup).toBeNull();
    expect(await twoFactorEnabled(userId)).toBe(false);
  });
});

describe("signing in", () => {
  it("without a second factor, the password alone signs in as before", async () => {
    const { res } = await passwordStep();
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/strefapastora/galeria");
  });

  it("asks for a code after the password, then signs in where the pastor was going", async () => {
    const { secret } = await enable();
    const step = await passwordStep();
    // No session yet: back to the same page, which now asks for the code.
    expect(step.res.status).toBe(302);
    expect(step.res.headers.get("Location")).toBe("/strefapastora/logowanie");
    expect(Object.keys(step.jar)).not.toContain("session");
    const page = await settle(() =>
      loginLoader({
        request: request("/strefapastora/logowanie", { headers: { Cookie: cookieHeader(step.jar) } }),
        params: {},
        context: {},
      }),
    );
    expect(await page.json()).toMatchObject({ step: "code" });

    const wrong = await codeStep(step, "000000");
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ error: "Nieprawidłowy kod weryfikacyjny.", email: "", step: "code" });

    const right = await codeStep(step, await codeOf(secret));
    expect(right.status).toBe(302);
    expect(right.headers.get("Location")).toBe("/strefapastora/galeria");
    const jar = cookiesFrom(right);
    expect(jar.session).toBeTruthy();
    expect(jar.device).toBeTruthy();
    expect(jar["sign-in-step"]).toBe("");
    const { user } = await readSession(request("/", { headers: { Cookie: `session=${jar.session}` } }));
    expect(user?.email).toBe(PASTOR.email);
  });

  it("refuses a code used once already, also in a new sign-in", async () => {
    const { secret } = await enable();
    const code = await codeOf(secret);
    expect((await codeStep(await passwordStep(), code)).status).toBe(302);
    const again = await codeStep(await passwordStep(), code);
    expect(again.status).toBe(400);
    // An older code within the window is refused too; the next one works.
    nextStep();
    expect((await codeStep(await passwordStep(), await codeOf(secret))).status).toBe(302);
  });

  it("takes a recovery code once, however it is typed", async () => {
    const { recovery } = await enable();
    const typed = ` ${recovery[3].toUpperCase().replace("-", " ")} `;
    expect((await codeStep(await passwordStep(), typed)).status).toBe(302);
    expect((await codeStep(await passwordStep(), recovery[3])).status).toBe(400);
    expect((await twoFactorState(userId)).recoveryCodesLeft).toBe(9);
  });

  it("forgets the password after five minutes", async () => {
    const { secret } = await enable();
    const step = await passwordStep();
    vi.setSystemTime(Date.now() + 5 * 60_000 + 1000);
    const res = await codeStep(step, await codeOf(secret));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Czas na wpisanie kodu minął. Zaloguj się ponownie.", email: "" });
  });

  it("counts wrong codes like wrong passwords; a right password does not wipe them", async () => {
    const { secret } = await enable();
    const first = await passwordStep("198.51.100.9");
    for (let i = 0; i < 4; i++) expect((await codeStep(first, `00000${i}`, "198.51.100.9")).status).toBe(400);
    // The password again: the four wrong codes still count.
    const second = await passwordStep("198.51.100.9");
    expect(second.res.status).toBe(302);
    expect((await codeStep(second, "000009", "198.51.100.9")).status).toBe(400);
    const locked = await codeStep(second, await codeOf(secret), "198.51.100.9");
    expect(locked.status).toBe(429);
    expect(await locked.json()).toEqual({
      error: "Zbyt wiele nieudanych prób logowania. Spróbuj ponownie za 15 min.",
      email: "",
      step: "code",
    });
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await codeStep(await passwordStep("203.0.113.4"), await codeOf(secret), "203.0.113.4")).status).toBe(302);
  });
});

describe("managing", () => {
  it("new recovery codes need a current code and replace the old ones", async () => {
    const { secret, recovery } = await enable();
    expect(await regenerateRecoveryCodes({ userId, code: "123456" })).toBeNull();
    const fresh = await regenerateRecoveryCodes({ userId, code: await codeOf(secret) });
    expect(fresh).toHaveLength(10);
    expect(await verifySecondFactor({ userId, code: recovery[0] })).toBeNull();
    expect(await verifySecondFactor({ userId, code: fresh![0] })).toBe("recovery");
  });

  it("turns off with a current code or the password, not with anything else", async () => {
    const { secret } = await enable();
    const args = { userId, email: PASTOR.email };
    expect(await disableTwoFactor({ ...args, codeOrPassword: "zle-haslo-123456" })).toBe(false);
    expect(await disableTwoFactor({ ...args, codeOrPassword: "000000" })).toBe(false);
    expect(await disableTwoFactor({ ...args, codeOrPassword: PASTOR.password })).toBe(true);
    expect(await twoFactorEnabled(userId)).toBe(false);

    const again = await enable();
    expect(await disableTwoFactor({ ...args, codeOrPassword: await codeOf(again.secret) })).toBe(true);
    expect((await twoFactorState(userId)).recoveryCodesLeft).toBe(0);
    expect(secret).not.toBe(again.secret);
  });

  it("turning it on ends the account's other sessions and keeps the one that did it", async () => {
    const session = (id: string) => ({
      id,
      userId,
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + 60_000),
    });
    const d = await db();
    await d.insert(sessions).values([session("a".repeat(64)), session("b".repeat(64))]);
    expect(await startTwoFactorSetup(userId)).toBe(true);
    const secret = (await twoFactorState(userId)).setup!.secret;
    // A wrong code changes nothing.
    expect(await confirmTwoFactorSetup({ userId, code: "000000", keepSessionId: "a".repeat(64) })).toBeNull();
    expect(await d.select({ id: sessions.id }).from(sessions)).toHaveLength(2);
    expect(
      await confirmTwoFactorSetup({ userId, code: await codeOf(secret), keepSessionId: "a".repeat(64) }),
    ).toHaveLength(10);
    expect(await d.select({ id: sessions.id }).from(sessions)).toEqual([{ id: "a".repeat(64) }]);
  });

  it("stores recovery codes under a keyed hash, and still takes one stored before it", async () => {
    const { recovery } = await enable();
    const d = await db();
    const stored = (await d.select({ hash: recoveryCodes.codeHash }).from(recoveryCodes)).map((r) => r.hash);
    const bare = (code: string) => createHash("sha256").update(code.replace("-", "")).digest("hex");
    expect(stored).toHaveLength(10);
    for (const code of recovery) expect(stored).not.toContain(bare(code));
    // A code from before the keyed hash (bare SHA-256) works once.
    await d.insert(recoveryCodes).values({ userId, codeHash: bare("abcde-fghjk") });
    expect(await verifySecondFactor({ userId, code: "abcde-fghjk" })).toBe("recovery");
    expect(await verifySecondFactor({ userId, code: "abcde-fghjk" })).toBeNull();
  });

  it("the operator's reset turns it off and ends the account's sessions", async () => {
    await enable();
    await db().then((d) =>
      d
        .insert(sessions)
        .values({ id: "x".repeat(64), userId, createdAt: new Date(), expiresAt: new Date(Date.now() + 60_000) }),
    );
    expect(await resetTwoFactor({ email: "Pastor@Example.org" })).toBe("reset");
    expect(await twoFactorEnabled(userId)).toBe(false);
    expect((await twoFactorState(userId)).recoveryCodesLeft).toBe(0);
    expect(await db().then((d) => d.select().from(sessions))).toEqual([]);
    expect(await resetTwoFactor({ email: PASTOR.email })).toBe("was-off");
    expect(await resetTwoFactor({ email: "nikt@example.org" })).toBe("missing");
    // The password alone signs in again.
    expect((await passwordStep()).res.headers.get("Location")).toBe("/strefapastora/galeria");
  });
});
