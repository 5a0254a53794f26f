import { expect, test } from "./fixtures";

test("public pages are revalidated on every view and answer 304 to a matching ETag", async ({ request }) => {
  for (const path of ["/", "/aktualnosci", "/galeria", "/onas", "/kontakt"]) {
    const first = await request.get(path);
    expect(first.status()).toBe(200);
    expect(first.headers()["cache-control"]).toBe(
      "public, max-age=0, must-revalidate, s-maxage=2, stale-if-error=86400",
    );
    const etag = first.headers()["etag"];
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await request.get(path, { headers: { "If-None-Match": etag } });
    expect(again.status(), path).toBe(304);
    expect(await again.body()).toHaveLength(0);
    const other = await request.get(path, { headers: { "If-None-Match": 'W/"inny"' } });
    expect(other.status()).toBe(200);
  }
});

test("text is compressed and build assets are immutable", async ({ request }) => {
  const page = await request.get("/aktualnosci", { headers: { "Accept-Encoding": "gzip" } });
  expect(page.headers()["content-encoding"]).toBe("gzip");
  // Pages inline their stylesheets; a visit that needs another links the built
  // file, which is cached for good under its hashed address.
  const css = (await page.text()).match(/<style data-href="(\/build\/_assets\/app-\w+\.css)">:root\{/)?.[1];
  expect(css).toBeTruthy();
  const asset = await request.get(css!);
  expect(asset.headers()["cache-control"]).toMatch(/max-age=31536000.*immutable|immutable.*max-age=31536000/);
});

test("the donation QR code is cached for good under its versioned address and revalidates by ETag", async ({
  request,
}) => {
  const html = await (await request.get("/kontakt")).text();
  const src = html.match(/src="(\/kod-przelewu\.svg\?v=[^"]+)"/)![1];
  const first = await request.get(src, { headers: { "Accept-Encoding": "gzip" } });
  expect(first.status()).toBe(200);
  expect(first.headers()["content-type"]).toBe("image/svg+xml; charset=utf-8");
  expect(first.headers()["content-encoding"]).toBe("gzip");
  expect(first.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  const again = await request.get(src, { headers: { "If-None-Match": first.headers()["etag"] } });
  expect(again.status()).toBe(304);
  expect(await again.body()).toHaveLength(0);
  // Without the page's version the address is not kept for long.
  const bare = await request.get("/kod-przelewu.svg");
  expect(bare.headers()["cache-control"]).toBe("public, max-age=0, must-revalidate, s-maxage=2, stale-if-error=86400");
  expect(await bare.text()).toBe(await first.text());
});

test("pastor pages arrive whole in every encoding a browser accepts", async ({ request }) => {
  for (const encoding of ["br", "gzip", "identity"]) {
    const res = await request.get("/strefapastora/logowanie", { headers: { "Accept-Encoding": encoding } });
    expect(res.status(), encoding).toBe(200);
    expect(res.headers()["content-encoding"] ?? "identity", encoding).toBe(encoding);
    const html = await res.text();
    expect(html, encoding).toContain("<h1>Strefa pastora</h1>");
    // One doctype (React writes it; a second one was once added by hand).
    expect(html.slice(0, 21), encoding).toBe("<!DOCTYPE html><html ");
  }
});
