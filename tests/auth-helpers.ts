// Signing in through the real login route, for tests of the pastor area.
import { createUser } from "~/features/auth/users.server";
import { requestContext } from "~/http/request-context.server";
import { action as loginAction, loader as loginLoader } from "~/routes/strefapastora.logowanie";
import { request, settle } from "./helpers";

export const PASTOR = { email: "pastor@example.org", password: "haslo-testowe-123" };
export const ORIGIN = "http://localhost";

export function addPastor(values: Partial<typeof PASTOR> = {}) {
  return createUser({ ...PASTOR, ...values });
}

/** `name=value` pairs of every Set-Cookie header, ready for a Cookie header. */
export function cookiesFrom(res: Response): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair.indexOf("=");
    jar[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return jar;
}

export const cookieHeader = (jar: Record<string, string>) =>
  Object.entries(jar)
    .map(([k, v]) => `${k}=${v}`)
    .join("; ");

/** The Set-Cookie line for one cookie name. */
export function setCookieLine(res: Response, name: string): string | undefined {
  return res.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
}

/** Opens the login page as a browser would: its form token and cookie. */
export async function openLoginPage(path = "/strefapastora/logowanie", cookie = "") {
  const res = await settle(() =>
    loginLoader({ request: request(path, { headers: cookie ? { Cookie: cookie } : {} }), params: {}, context: {} }),
  );
  return {
    res,
    data: res.status === 200 ? ((await res.clone().json()) as { csrf: string; redirectTo: string }) : null,
  };
}

/** The client address the front door would hand over, for what `fn` runs. */
export function fromAddress<T>(address: string, fn: () => T): T {
  return requestContext.run({ clientAddress: address }, fn);
}

/**
 * Submits the login form from a fresh login page (a new form cookie each
 * time); `headers` may add Origin, cookies etc., `address` is the client's.
 */
export async function submitLogin(
  fields: { email: string; password: string; redirectTo?: string },
  {
    headers = {},
    path = "/strefapastora/logowanie",
    address = "127.0.0.1",
  }: { headers?: Record<string, string>; path?: string; address?: string } = {},
) {
  const { res: page, data } = await openLoginPage();
  const body = new URLSearchParams({ csrf: data!.csrf, ...fields });
  return settle(() =>
    fromAddress(address, () =>
      loginAction({
        request: request(path, {
          method: "POST",
          body,
          headers: {
            Origin: ORIGIN,
            ...headers,
            Cookie: [headers.Cookie, cookieHeader(cookiesFrom(page))].filter(Boolean).join("; "),
          },
        }),
        params: {},
        context: {},
      }),
    ),
  );
}

/** Signs in and returns the Cookie header of the new session. */
export async function signIn(
  fields: { email: string; password: string } = PASTOR,
  headers: Record<string, string> = {},
) {
  const res = await submitLogin(fields, { headers });
  if (res.status !== 302) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return cookieHeader(cookiesFrom(res));
}
