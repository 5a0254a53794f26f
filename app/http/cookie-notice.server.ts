import { createCookie } from "@remix-run/node";

/**
 * Acceptance of the cookie notice without JavaScript: a cookie without
 * expiry, so it lasts for the browser session like sessionStorage does.
 */
export const acceptPolicyCookie = createCookie("acceptPolicy", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
});

export async function policyAccepted(request: Request): Promise<boolean> {
  return (await acceptPolicyCookie.parse(request.headers.get("Cookie"))) === "true";
}
