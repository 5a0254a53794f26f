// The pastor's signed-in devices: each sign-in listed with its browser,
// system, times and address; one or all others signed out from here. And
// the remembered devices (the device token): listed, forgotten one by one,
// and taken back by every event that must take them back.
import crypto from "node:crypto";
import { generateTOTP } from "@epic-web/totp";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/services/db.server";
import { devices } from "~/services/schema";
import { hasDeviceToken } from "~/features/auth/device-token.server";
import { deviceName } from "~/features/auth/devices.server";
import { findUserByEmail, removeUser, setPassword } from "~/features/auth/users.server";
import {
  confirmTwoFactorSetup,
  resetTwoFactor,
  startTwoFactorSetup,
  twoFactorState,
} from "~/features/auth/two-factor.server";
import { action, loader } from "~/routes/strefapastora.urzadzenia";
import { ORIGIN, PASTOR, addPastor, cookieHeader, cookiesFrom, submitLogin } from "../auth-helpers";
import { request, resetDatabase, settle } from "../helpers";

const PHONE =
  "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
const LAPTOP = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

async function signInWith(userAgent: string, address: string) {
  const res = await submitLogin(PASTOR, { headers: { "User-Agent": userAgent }, address });
  expect(res.status).toBe(302);
  return cookieHeader(cookiesFrom(res));
}

interface Listed {
  csrf: string;
  flash: string | null;
  devices: { id: string; name: string; address: string | null; current: boolean }[];
  remembered: { id: string; name: string; current: boolean }[];
}

async function open(cookie: string) {
  const res = await settle(() =>
    loader({ request: request("/strefapastora/urzadzenia", { headers: { Cookie: cookie } }), params: {}, context: {} }),
  );
  return { res, data: res.status === 200 ? ((await res.json()) as Listed) : null };
}

/** The browser's cookies after an answer: the flash message rides in one. */
const withCookiesOf = (cookie: string, res: Response) =>
  [cookie, cookieHeader(cookiesFrom(res))].filter(Boolean).join("; ");

async function post(cookie: string, fields: Record<string, string>) {
  const { data } = await open(cookie);
  return settle(() =>
    action({
      request: request("/strefapastora/urzadzenia", {
        method: "POST",
        headers: { Cookie: cookie, Origin: ORIGIN },
        body: new URLSearchParams({ csrf: data!.csrf, ...fields }),
      }),
      params: {},
      context: {},
    }),
  );
}

describe("signed-in devices", () => {
  beforeEach(async () => {
    await resetDatabase();
    await addPastor();
  });

  it("names browsers and systems as people do", () => {
    expect(deviceName(PHONE)).toBe("Chrome 131 · Android 14");
    expect(deviceName(LAPTOP)).toBe("Firefox 133 · Windows 10");
    expect(deviceName(null)).toBe("nieznane urządzenie");
    expect(deviceName("")).toBe("nieznane urządzenie");
  });

  it("lists every sign-in, this device first, with its address", async () => {
    const phone = await signInWith(PHONE, "198.51.100.7");
    await signInWith(LAPTOP, "203.0.113.9");
    const { data } = await open(phone);
    expect(data!.devices.map((d) => [d.name, d.address, d.current])).toEqual([
      ["Chrome 131 · Android 14", "198.51.100.7", true],
      ["Firefox 133 · Windows 10", "203.0.113.9", false],
    ]);
  });

  it("signs one other device out, and then all others", async () => {
    const phone = await signInWith(PHONE, "198.51.100.7");
    const laptop = await signInWith(LAPTOP, "203.0.113.9");
    const tablet = await signInWith(PHONE, "192.0.2.1");
    const laptopId = (await open(laptop)).data!.devices.find((d) => d.current)!.id;

    const one = await post(phone, { intent: "one", id: laptopId });
    expect(one.status).toBe(302);
    expect((await open(laptop)).res.status).toBe(302); // sent to sign in
    expect((await open(withCookiesOf(phone, one))).data!.flash).toBe("Wylogowano urządzenie.");
    expect((await open(tablet)).res.status).toBe(200);

    const others = await post(phone, { intent: "others" });
    expect((await open(tablet)).res.status).toBe(302);
    const { data } = await open(withCookiesOf(phone, others));
    expect(data!.flash).toBe("Wylogowano wszystkie inne urządzenia.");
    expect(data!.devices).toHaveLength(1);
  });

  it("never signs out another account's device, nor this one by its id", async () => {
    await addPastor({ email: "drugi@example.org" });
    const other = await submitLogin({ ...PASTOR, email: "drugi@example.org" });
    const otherCookie = cookieHeader(cookiesFrom(other));
    const otherId = (await open(otherCookie)).data!.devices[0].id;
    const mine = await signInWith(PHONE, "198.51.100.7");
    const myId = (await open(mine)).data!.devices[0].id;

    const res = await post(mine, { intent: "one", id: otherId });
    expect((await open(otherCookie)).res.status).toBe(200);
    expect((await open(withCookiesOf(mine, res))).data!.flash).toBe("To urządzenie jest już wylogowane.");
    const self = await post(mine, { intent: "one", id: myId });
    expect((await open(withCookiesOf(mine, self))).data!.flash).toBe(
      "To urządzenie wylogujesz przyciskiem „wyloguj się”.",
    );
  });
});

describe("remembered devices", () => {
  beforeEach(async () => {
    await resetDatabase();
    await addPastor();
  });

  /** True while the browser's device token is one of the account's remembered devices. */
  const remembered = (cookie: string, email = PASTOR.email) => hasDeviceToken(cookie, email);
  const tokenOf = (cookie: string) => /(?:^|; )device=([^;]*)/.exec(cookie)![1];
  const rows = async () => (await db()).select().from(devices);
  const deviceIdOf = async (cookie: string) => (await open(cookie)).data!.remembered.find((d) => d.current)!.id;

  it("are the browsers signed in from: a random token in the cookie, only its hash stored, reused by the same browser", async () => {
    const phone = await signInWith(PHONE, "198.51.100.7");
    const [row] = await rows();
    const value = JSON.parse(Buffer.from(decodeURIComponent(tokenOf(phone)), "base64").toString()) as string;
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(row.id).toBe(crypto.createHash("sha256").update(value).digest("hex"));
    expect(JSON.stringify(await rows())).not.toContain(value);

    // The same browser signing in again stays one device; another is a second.
    const again = await submitLogin(PASTOR, { headers: { "User-Agent": PHONE, Cookie: `device=${tokenOf(phone)}` } });
    expect(cookiesFrom(again).device).toBe(tokenOf(phone));
    const laptop = await signInWith(LAPTOP, "203.0.113.9");
    expect(await rows()).toHaveLength(2);
    expect((await open(laptop)).data!.remembered.map((d) => [d.name, d.current])).toEqual([
      ["Firefox 133 · Windows 10", true],
      ["Chrome 131 · Android 14", false],
    ]);
    expect(await remembered(phone)).toBe(true);
    expect(await remembered(phone, "inny@example.org")).toBe(false);
  });

  it("one is forgotten with 'usuń'; another account's never", async () => {
    const phone = await signInWith(PHONE, "198.51.100.7");
    const laptop = await signInWith(LAPTOP, "203.0.113.9");
    const laptopId = await deviceIdOf(laptop);

    const res = await post(phone, { intent: "forget", id: laptopId });
    expect(res.status).toBe(302);
    expect((await open(withCookiesOf(phone, res))).data!.flash).toBe("Usunięto urządzenie.");
    expect(await remembered(laptop)).toBe(false);
    expect(await remembered(phone)).toBe(true);
    const again = await post(phone, { intent: "forget", id: laptopId });
    expect((await open(withCookiesOf(phone, again))).data!.flash).toBe("To urządzenie jest już usunięte.");

    await addPastor({ email: "drugi@example.org" });
    const other = cookieHeader(cookiesFrom(await submitLogin({ ...PASTOR, email: "drugi@example.org" })));
    const refused = await post(phone, { intent: "forget", id: await deviceIdOf(other) });
    expect((await open(withCookiesOf(phone, refused))).data!.flash).toBe("To urządzenie jest już usunięte.");
    expect(await remembered(other, "drugi@example.org")).toBe(true);
  });

  it("'wyloguj wszystkie inne' forgets every other device and keeps this browser's", async () => {
    const phone = await signInWith(PHONE, "198.51.100.7");
    const laptop = await signInWith(LAPTOP, "203.0.113.9");
    const res = await post(phone, { intent: "others" });
    const { data } = await open(withCookiesOf(phone, res));
    expect(data!.flash).toBe("Wylogowano wszystkie inne urządzenia.");
    expect(data!.remembered.map((d) => d.current)).toEqual([true]);
    expect(await remembered(laptop)).toBe(false);
    expect(await remembered(phone)).toBe(true);
  });

  it("a new password forgets them: all from the command line, all but his own browser when he changes it there", async () => {
    const phone = await signInWith(PHONE, "198.51.100.7");
    const laptop = await signInWith(LAPTOP, "203.0.113.9");
    expect(await setPassword({ email: PASTOR.email, password: "zupelnie-nowe-haslo" })).toBe(true);
    expect(await remembered(phone)).toBe(false);
    expect(await remembered(laptop)).toBe(false);
    expect(await rows()).toEqual([]);

    const NEW = { ...PASTOR, password: "zupelnie-nowe-haslo" };
    const phone2 = cookieHeader(cookiesFrom(await submitLogin(NEW, { headers: { "User-Agent": PHONE } })));
    const laptop2 = cookieHeader(cookiesFrom(await submitLogin(NEW, { headers: { "User-Agent": LAPTOP } })));
    const keep = await deviceIdOf(phone2);
    expect(await setPassword({ email: PASTOR.email, password: "jeszcze-inne-haslo", keepDevice: keep })).toBe(true);
    expect(await remembered(phone2)).toBe(true);
    expect(await remembered(laptop2)).toBe(false);
  });

  it("a reset of the second factor from the command line forgets them all", async () => {
    const phone = await signInWith(PHONE, "198.51.100.7");
    const laptop = await signInWith(LAPTOP, "203.0.113.9");
    const { id } = (await findUserByEmail(PASTOR.email))!;
    await startTwoFactorSetup(id);
    const { secret } = (await twoFactorState(id)).setup!;
    const { otp } = await generateTOTP({ secret, period: 30, digits: 6, algorithm: "SHA-1" });
    expect(await confirmTwoFactorSetup({ userId: id, code: otp })).toHaveLength(10);
    expect(await remembered(phone)).toBe(true);

    expect(await resetTwoFactor({ email: PASTOR.email })).toBe("reset");
    expect(await remembered(phone)).toBe(false);
    expect(await remembered(laptop)).toBe(false);
    expect(await rows()).toEqual([]);
  });

  it("go with the removed account", async () => {
    const phone = await signInWith(PHONE, "198.51.100.7");
    expect(await removeUser({ email: PASTOR.email })).toBe(true);
    expect(await rows()).toEqual([]);
    // The same e-mail made again is a new account: the old browser is not one of its devices.
    await addPastor();
    expect(await remembered(phone)).toBe(false);
  });
});
