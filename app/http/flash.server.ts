import { createCookie, redirect } from "@remix-run/node";
import { config } from "~/services/config.server";
import { sessionSecrets } from "~/services/session-secret.server";
import { PANEL_PATH } from "~/lib/paths";

/**
 * A one-time message shown after a redirect ("Zapisano artykuł."). It lives
 * in a short cookie that the next page reads and clears, so it works with
 * and without JavaScript. Signed, so a visitor cannot plant a message the
 * panel would show as the site's own.
 */
const flashCookie = () =>
  createCookie("flash", {
    path: PANEL_PATH,
    httpOnly: true,
    sameSite: "lax",
    secure: config().isProduction,
    maxAge: 60,
    secrets: sessionSecrets(),
  });

/** The Set-Cookie value that leaves `message` for the next page. */
export async function flashCookieHeader(message: string): Promise<string> {
  return flashCookie().serialize(message.slice(0, 500));
}

export async function redirectWithFlash(to: string, message: string, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await flashCookieHeader(message));
  return redirect(to, { ...init, headers });
}

/** The message left by the previous request, and the header that clears it. */
export async function readFlash(request: Request): Promise<{ flash: string | null; headers: Headers }> {
  const headers = new Headers({ "Cache-Control": "no-store" });
  const value = await flashCookie().parse(request.headers.get("Cookie"));
  if (typeof value !== "string") return { flash: null, headers };
  headers.append("Set-Cookie", await flashCookie().serialize("", { maxAge: 0 }));
  return { flash: value, headers };
}
