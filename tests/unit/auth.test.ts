// Signing in and out, sessions that end on the server, cross-site writes.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clock } from "~/services/clock.server";
import { sessions } from "~/services/schema";
import { db } from "~/services/db.server";
import { setPassword } from "~/features/auth/users.server";
import { loader as panelLoader } from "~/routes/strefapastora._index";
import { action as logoutAction, loader as logoutLoader } from "~/routes/strefapastora.wyloguj";
import { SESSION_IDLE_MS, SESSION_MAX_MS } from "~/features/auth/session.server";
import {
  ORIGIN,
  PASTOR,
  addPastor,
  cookieHeader,
  cookiesFrom,
  openLoginPage,
  setCookieLine,
  signIn,
  submitLogin,
} from "../auth-helpers";
import { request, resetDatabase, settle } from "../helpers";

const DAY = 24 * 60 * 60 * 1000;

beforeEach(async () => {
  await resetDatabase();
  await addPastor();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const openPanel = (cookie: string) =>
  settle(() =>
    panelLoader({ request: request("/strefapastora", { headers: { Cookie: cookie } }), params: {}, context: {} }),
  );

async function csrfOf(cookie: string) {
  return ((await (await openPanel(cookie)).json()) as { csrf: string }).csrf;
}

function logout(cookie: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}) {
  return settle(() =>
    logoutAction({
      request: request("/strefapastora/wyloguj", {
        method: "POST",
        body: init.body,
        headers: { Cookie: cookie, Origin: ORIGIN, ...init.headers },
      }),
      params: {},
      context: {},
    }),
  );
}

async function countSessions() {
  const rows = await (await db()).select({ id: sessions.id }).from(sessions);
  return rows.length;
}

describe("login page", () => {
  it("gives the form a token tied to a cookie of this browser", async () => {
    const { res, data } = await openLoginPage();
    expect(res.status).toBe(200);
    expect(data?.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data?.redirectTo).toBe("/strefapastora");
    const line = setCookieLine(res, "login_token")!;
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/SameSite=Lax/);
    // The whole area: the form's script posts to /strefapastora/logowanie.data.
    expect(line).toMatch(/Path=\/strefapastora;/);
  });

  it("signs in and goes to /strefapastora, where the e-mail is shown", async () => {
    const res = await submitLogin(PASTOR);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/strefapastora");
    const line = setCookieLine(res, "session")!;
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/SameSite=Lax/);
    expect(line).toMatch(/Path=\//);
    expect(line).toMatch(new RegExp(`Max-Age=${SESSION_MAX_MS / 1000}`));
    expect(line).not.toMatch(/Secure/);

    const panel = await openPanel(cookieHeader(cookiesFrom(res)));
    expect(panel.status).toBe(200);
    expect(await panel.json()).toMatchObject({ email: PASTOR.email });
    expect(panel.headers.get("Cache-Control")).toBe("no-store");
  });

  it("keeps only a hash of the session id in the database", async () => {
    const cookie = await signIn();
    const [row] = await (await db()).select().from(sessions);
    expect(row.id).toMatch(/^[0-9a-f]{64}$/);
    expect(decodeURIComponent(cookie)).not.toContain(row.id);
  });

  it("accepts the e-mail in any letter case", async () => {
    const res = await submitLogin({ email: "  PASTOR@Example.ORG ", password: PASTOR.password });
    expect(res.status).toBe(302);
  });

  it("refuses a wrong password with the original site's message and keeps the e-mail", async () => {
    const res = await submitLogin({ email: PASTOR.email, password: "zle-haslo-000" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Niepoprawne dane logowania!", email: PASTOR.email });
    expect(setCookieLine(res, "session")).toBeUndefined();
    expect(await countSessions()).toBe(0);
  });

  it("answers an unknown e-mail exactly like a wrong password", async () => {
    const wrong = await submitLogin({ email: PASTOR.email, password: "zle-haslo-000" });
    const unknown = await submitLogin({ email: "nikt@example.org", password: "zle-haslo-000" });
    expect(unknown.status).toBe(wrong.status);
    expect((await unknown.json()).error).toBe((await wrong.json()).error);
    expect([...unknown.headers.keys()].sort()).toEqual([...wrong.headers.keys()].sort());
  });

  it("refuses empty fields the same way", async () => {
    const res = await submitLogin({ email: "", password: "" });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("Niepoprawne dane logowania!");
  });

  it("sends a signed-in visitor on to /strefapastora", async () => {
    const cookie = await signIn();
    const { res } = await openLoginPage("/strefapastora/logowanie", cookie);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/strefapastora");
  });

  it("starts a new session id at each sign-in and ends the one the browser had", async () => {
    const first = await signIn();
    const res = await submitLogin(PASTOR, { headers: { Cookie: first } });
    expect(res.status).toBe(302);
    expect((await openPanel(first)).headers.get("Location")).toBe("/strefapastora/logowanie");
    expect(await countSessions()).toBe(1);
  });
});

describe("redirectTo after sign-in", () => {
  it("goes to a same-site path", async () => {
    const res = await submitLogin({ ...PASTOR, redirectTo: "/strefapastora/artykuly?strona=2" });
    expect(res.headers.get("Location")).toBe("/strefapastora/artykuly?strona=2");
  });

  it.each([
    "//evil.example",
    "//evil.example/strefapastora",
    "https://evil.example/",
    "http:evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    " //evil.example",
    "javascript:alert(1)",
    "evil.example",
    "",
  ])("never leaves the site: %j", async (redirectTo) => {
    const res = await submitLogin({ ...PASTOR, redirectTo });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/strefapastora");
  });

  // Dot-segments and their encoded forms collapse to `//host` only once the URL is parsed.
  const normalisingToAnotherHost = [
    "/.//evil.example",
    "/a/..//evil.example",
    "/%2e//evil.example",
    "/%2E%2E//evil.example",
    "/a/%2e%2e//evil.example/x?y=1",
    "/./\\evil.example",
    "/a/..\\/evil.example",
  ];

  it.each(normalisingToAnotherHost)(
    "never leaves the site after dot-segments are resolved (POST): %j",
    async (redirectTo) => {
      const res = await submitLogin({ ...PASTOR, redirectTo });
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/strefapastora");
    },
  );

  it("never leaves the site after dot-segments are resolved (GET, signed in)", async () => {
    const cookie = await signIn();
    for (const redirectTo of normalisingToAnotherHost) {
      const query = new URLSearchParams({ redirectTo });
      const { res, data } = await openLoginPage(`/strefapastora/logowanie?${query}`, cookie);
      expect(res.status, redirectTo).toBe(302);
      expect(res.headers.get("Location"), redirectTo).toBe("/strefapastora");
      const anonymous = await openLoginPage(`/strefapastora/logowanie?${query}`);
      expect(anonymous.data?.redirectTo, redirectTo).toBe("/strefapastora");
      expect(data).toBeNull();
    }
    const { res } = await openLoginPage("/strefapastora/logowanie?redirectTo=%2F.%2F%2Fevil.example", cookie);
    expect(res.headers.get("Location")).toBe("/strefapastora");
  });

  it("hands on the normalised same-site path", async () => {
    const res = await submitLogin({ ...PASTOR, redirectTo: "/strefapastora/./x/../galeria?a=1#b" });
    expect(res.headers.get("Location")).toBe("/strefapastora/galeria?a=1#b");
  });

  it("is carried from the login page's address, checked there too", async () => {
    const { data } = await openLoginPage("/strefapastora/logowanie?redirectTo=%2Fstrefapastora%2Fgaleria");
    expect(data?.redirectTo).toBe("/strefapastora/galeria");
    const evil = await openLoginPage("/strefapastora/logowanie?redirectTo=%2F%2Fevil.example");
    expect(evil.data?.redirectTo).toBe("/strefapastora");
    const cookie = await signIn();
    const { res } = await openLoginPage("/strefapastora/logowanie?redirectTo=//evil.example", cookie);
    expect(res.headers.get("Location")).toBe("/strefapastora");
  });
});

describe("login form forgery", () => {
  it("refuses a sign-in posted from another site", async () => {
    const res = await submitLogin(PASTOR, { headers: { Origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    expect(await countSessions()).toBe(0);
  });

  it("refuses a sign-in without the form's token cookie", async () => {
    const { data } = await openLoginPage();
    const res = await settle(async () => {
      const { action } = await import("~/routes/strefapastora.logowanie");
      return action({
        request: request("/strefapastora/logowanie", {
          method: "POST",
          body: new URLSearchParams({ ...PASTOR, csrf: data!.csrf }),
          headers: { Origin: ORIGIN },
        }),
        params: {},
        context: {},
      });
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Formularz wygasł. Spróbuj ponownie.", email: PASTOR.email });
    expect(await countSessions()).toBe(0);
  });
});

describe("panel home", () => {
  it("sends strangers to the login page", async () => {
    const res = await openPanel("");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/strefapastora/logowanie");
  });

  it.each([
    ["garbage", "session=abc"],
    ["unsigned id", `session=${Buffer.from(JSON.stringify({ sid: "a".repeat(43) })).toString("base64")}`],
  ])("refuses a forged cookie (%s)", async (_, cookie) => {
    const res = await openPanel(cookie);
    expect(res.headers.get("Location")).toBe("/strefapastora/logowanie");
  });
});

describe("logout", () => {
  it("is a POST that ends the session on the server and goes home", async () => {
    const cookie = await signIn();
    const res = await logout(cookie, { body: new URLSearchParams({ csrf: await csrfOf(cookie) }) });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect(setCookieLine(res, "session")).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
    expect(await countSessions()).toBe(0);
    // The old cookie, kept by someone, no longer opens the panel; it is cleared.
    const again = await openPanel(cookie);
    expect(again.headers.get("Location")).toBe("/strefapastora/logowanie");
    expect(setCookieLine(again, "session")).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
  });

  it("by GET changes nothing", async () => {
    const cookie = await signIn();
    const res = await settle(() =>
      logoutLoader({
        request: request("/strefapastora/wyloguj", { headers: { Cookie: cookie } }),
        params: {},
        context: {},
      }),
    );
    expect(res.headers.get("Location")).toBe("/strefapastora");
    expect((await openPanel(cookie)).status).toBe(200);
  });

  it("accepts the token in a multipart form, read from the start of the body", async () => {
    const cookie = await signIn();
    const form = new FormData();
    form.set("csrf", await csrfOf(cookie));
    form.set("plik", new Blob([Buffer.alloc(200_000, 7)]), "duzy.jpg");
    const res = await logout(cookie, { body: form });
    expect(res.headers.get("Location")).toBe("/");
    expect(await countSessions()).toBe(0);
  });

  it("accepts the token as a header from the site's own scripts", async () => {
    const cookie = await signIn();
    const res = await logout(cookie, { headers: { "X-CSRF-Token": await csrfOf(cookie) } });
    expect(res.headers.get("Location")).toBe("/");
  });
});

describe("cross-site writes", () => {
  it("are refused without the session's token", async () => {
    const cookie = await signIn();
    for (const body of [new URLSearchParams(), new URLSearchParams({ csrf: "x".repeat(43) })]) {
      const res = await logout(cookie, { body });
      expect(res.status).toBe(403);
    }
    const form = new FormData();
    form.set("plik", new Blob([Buffer.alloc(100_000, 7)]), "a.jpg");
    form.set("csrf", await csrfOf(cookie));
    // A token behind large uploads is not looked for: CsrfInput goes first.
    expect((await logout(cookie, { body: form })).status).toBe(403);
    expect((await openPanel(cookie)).status).toBe(200);
  });

  it("are refused from another origin even with a valid cookie and token", async () => {
    const cookie = await signIn();
    const csrf = await csrfOf(cookie);
    for (const headers of <Record<string, string>[]>[
      { Origin: "https://evil.example" },
      { Origin: "null" },
      { Origin: "http://localhost.evil.example" },
      { Origin: ORIGIN, "Sec-Fetch-Site": "cross-site" },
      { Origin: ORIGIN, "Sec-Fetch-Site": "same-site" },
    ]) {
      const res = await logout(cookie, { body: new URLSearchParams({ csrf }), headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
    // A Referer from elsewhere when the browser sends no Origin.
    const res = await settle(() =>
      logoutAction({
        request: request("/strefapastora/wyloguj", {
          method: "POST",
          body: new URLSearchParams({ csrf }),
          headers: { Cookie: cookie, Referer: "https://evil.example/form" },
        }),
        params: {},
        context: {},
      }),
    );
    expect(res.status).toBe(403);
    expect((await openPanel(cookie)).status).toBe(200);
    expect(await countSessions()).toBe(1);
  });
});

describe("sessions", () => {
  it("end on the server when revoked, e.g. by a password change", async () => {
    const cookie = await signIn();
    expect((await openPanel(cookie)).status).toBe(200);
    await setPassword({ email: PASTOR.email, password: "nowe-haslo-456" });
    expect((await openPanel(cookie)).headers.get("Location")).toBe("/strefapastora/logowanie");
    expect(await countSessions()).toBe(0);
    expect((await submitLogin(PASTOR)).status).toBe(400);
    expect((await submitLogin({ email: PASTOR.email, password: "nowe-haslo-456" })).status).toBe(302);
  });

  it("end when their row is deleted", async () => {
    const cookie = await signIn();
    await (await db()).delete(sessions);
    expect((await openPanel(cookie)).headers.get("Location")).toBe("/strefapastora/logowanie");
  });

  it("slide: 14 idle days end them, use keeps them alive up to 30 days", async () => {
    let now = Date.parse("2025-03-01T10:00:00Z");
    vi.spyOn(clock, "now").mockImplementation(() => new Date(now));
    const cookie = await signIn();

    now += SESSION_IDLE_MS - DAY; // 13 days idle
    expect((await openPanel(cookie)).status).toBe(200);
    now += SESSION_IDLE_MS - DAY; // 26 days after sign-in, 13 idle
    expect((await openPanel(cookie)).status).toBe(200);
    now += 4 * DAY - 1000; // just short of the 30-day limit
    expect((await openPanel(cookie)).status).toBe(200);
    now += 2000;
    expect((await openPanel(cookie)).status).toBe(302);

    const other = await signIn();
    now += SESSION_IDLE_MS + 1000;
    expect((await openPanel(other)).headers.get("Location")).toBe("/strefapastora/logowanie");
  });
});
