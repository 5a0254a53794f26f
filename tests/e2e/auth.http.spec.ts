// Anonymous HTTP requests to every pastor URL (taken from app/routes, so new
// routes are covered), with and without Remix's data-request form (single
// fetch's `/path.data`), and a
// cross-site POST carrying a valid session.
import fs from "node:fs";
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { dataRedirect, dataUrl } from "../single-fetch";

const PASTOR = { email: "pastor@example.org", password: "haslo-testowe-123" };

function pastorUrls() {
  return (
    fs
      .readdirSync("app/routes")
      // The area's layout (strefapastora.tsx) has no URL of its own: /strefapastora is the panel home.
      .filter(
        (f) => f.startsWith("strefapastora.") && !["strefapastora.tsx", "strefapastora.logowanie.tsx"].includes(f),
      )
      .map((f) => {
        const id = f.replace(/\/route\.[jt]sx?$|\.[jt]sx?$/, "");
        const path = id
          .split(".")
          .filter((s) => s !== "_index" && !s.startsWith("_"))
          .map((s) => (s.startsWith("$") ? "1700000000000" : s.replace(/_$/, "")))
          .join("/");
        return { id, path: `/${path}`, home: id === "strefapastora._index" };
      })
  );
}

test("every pastor URL refuses anonymous GET and POST", async ({ request }) => {
  const urls = pastorUrls();
  expect(urls.map((u) => u.path)).toContain("/strefapastora");
  for (const { path, home } of urls) {
    const get = await request.get(path, { maxRedirects: 0 });
    expect(get.status(), `GET ${path}`).toBe(302);
    expect(get.headers().location).toBe(home ? "/strefapastora/logowanie" : "/");

    // Remix's client asks for data this way; a redirect comes back as 202 and a turbo-stream body.
    const getData = await request.get(dataUrl(path), { maxRedirects: 0 });
    expect(getData.status(), `GET ${dataUrl(path)}`).toBe(202);
    expect(await dataRedirect(await getData.body())).toBe(home ? "/strefapastora/logowanie" : "/");

    for (const url of [path, dataUrl(path, { index: home })]) {
      const post = await request.post(url, {
        form: { intent: "delete", id: "1700000000000", csrf: "x" },
        maxRedirects: 0,
      });
      // 405 when the route has no action: refused just the same.
      expect([302, 202, 405], `POST ${url}`).toContain(post.status());
      if (post.status() === 302) expect(post.headers().location).toMatch(/^\/(strefapastora\/logowanie)?$/);
      if (post.status() === 202) {
        expect(await dataRedirect(await post.body())).toMatch(/^\/(strefapastora\/logowanie)?$/);
      }
    }
  }
});

async function signIn(request: APIRequestContext) {
  const page = await request.get("/strefapastora/logowanie");
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1];
  const res = await request.post("/strefapastora/logowanie", {
    form: { ...PASTOR, csrf, redirectTo: "/strefapastora" },
    headers: { Origin: new URL(page.url()).origin },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(302);
}

test("a cross-site POST is refused even with a valid session and token", async ({ request, baseURL, playwright }) => {
  await signIn(request);
  const panel = await request.get("/strefapastora");
  expect(panel.status()).toBe(200);
  expect(panel.headers()["cache-control"]).toMatch(/no-store/);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await panel.text())![1];

  const forged = await request.post("/strefapastora/wyloguj", {
    form: { csrf },
    headers: { Origin: "https://evil.example" },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);
  expect((await request.get("/strefapastora", { maxRedirects: 0 })).status()).toBe(200);

  const tokenless = await request.post("/strefapastora/wyloguj", {
    form: {},
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(tokenless.status()).toBe(403);

  // A multipart form (as uploads send) with the token first is accepted.
  const own = await request.post("/strefapastora/wyloguj", {
    multipart: { csrf, plik: { name: "a.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(300_000, 1) } },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(own.status()).toBe(302);
  expect(own.headers().location).toBe("/");
  // A new connection: the server closes one whose upload it did not read.
  const after = await playwright.request.newContext({ baseURL, storageState: await request.storageState() });
  expect((await after.get("/strefapastora", { maxRedirects: 0 })).headers().location).toBe("/strefapastora/logowanie");
  await after.dispose();
});
