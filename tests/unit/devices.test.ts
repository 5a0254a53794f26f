// The pastor's signed-in devices: each sign-in listed with its browser,
// system, times and address; one or all others signed out from here.
import { beforeEach, describe, expect, it } from "vitest";
import { deviceName } from "~/features/auth/devices.server";
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
