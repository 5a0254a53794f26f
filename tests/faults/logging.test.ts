// The built server logs one JSON line per request, and never a password,
// a session cookie or a form token.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createScratchDatabase, postgresAvailable } from "../setup/database";
import { type RunningServer, startBuiltServer } from "./server";

let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
let server: RunningServer;
const PASSWORD = "bardzo-tajne-haslo-4711";

beforeAll(async () => {
  if (await postgresAvailable()) scratch = await createScratchDatabase("logs");
  server = await startBuiltServer({
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ADMIN_EMAIL: "logi@example.org",
    ADMIN_PASSWORD: PASSWORD,
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await scratch?.drop();
});

function requestLines() {
  return server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.msg === "request");
}

it("writes one JSON line per request with id, method, path, status and duration", async () => {
  const before = requestLines().length;
  const res = await fetch(`${server.base}/aktualnosci?utm=1`);
  await res.text();
  const bad = await fetch(`${server.base}/aktualnosci/%E0%A4%A`);
  expect(bad.status).toBe(404);
  expect(await bad.text()).toContain("Nie znaleziono strony");
  await new Promise((r) => setTimeout(r, 200));
  const lines = requestLines()
    .slice(before)
    .filter((l) => String(l.path).startsWith("/aktualnosci"));
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatchObject({ method: "GET", path: "/aktualnosci", status: 200 });
  expect(lines[0].reqId).toBe(res.headers.get("X-Request-Id"));
  expect(typeof lines[0].durationMs).toBe("number");
  expect(lines[1]).toMatchObject({ method: "GET", path: "/aktualnosci/%E0%A4%A", status: 404 });
});

it("keeps passwords, session cookies and tokens out of the log", async () => {
  const page = await fetch(`${server.base}/strefapastora/logowanie`);
  const html = await page.text();
  const csrf = html.match(/name="csrf" value="([^"]+)"/)?.[1];
  expect(csrf).toBeTruthy();
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const login = await fetch(`${server.base}/strefapastora/logowanie`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.base, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf: csrf!, email: "logi@example.org", password: PASSWORD }),
  });
  expect(login.status).toBe(302);
  const pair = login.headers
    .getSetCookie()
    .find((c) => /session=/.test(c))!
    .split(";")[0];
  const session = pair.split("=")[1];
  const panel = await fetch(`${server.base}/strefapastora`, { headers: { Cookie: pair }, redirect: "manual" });
  expect(panel.status).toBe(200);
  await new Promise((r) => setTimeout(r, 200));
  const log = server.output();
  expect(log).not.toContain(PASSWORD);
  expect(log).not.toContain(session);
  expect(log).not.toContain(csrf!);
});

it("answers a form posted from another site with 403 in Polish, logged as a warning without a stack", async () => {
  const before = server.output().length;
  for (const [path, origin] of [
    ["/strefapastora/logowanie", "https://evil.example"],
    ["/strefapastora/logowanie", "null"],
    ["/?index", "http://evil.example"],
  ]) {
    const res = await fetch(`${server.base}${path}`, {
      method: "POST",
      headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: "email=a%40b.pl&password=x",
    });
    expect(res.status, `${path} from ${origin}`).toBe(403);
    expect(res.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    expect(html).toContain('<html lang="pl">');
    expect(html).toContain("Formularz wysłano z innej strony");
  }
  await new Promise((r) => setTimeout(r, 200));
  const logged = server
    .output()
    .slice(before)
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(logged.filter((l) => Number(l.level) >= 50)).toEqual([]);
  expect(server.output().slice(before)).not.toContain("    at ");
  const warnings = logged.filter((l) => l.level === 40);
  expect(warnings).toHaveLength(3);
  expect(warnings[0]).toMatchObject({ msg: "cross-site post refused", path: "/strefapastora/logowanie" });
});
