// /pliki/*: stored files as the browser gets them. An upload that is not one
// of the site's image types must never be shown as a page of the site.
import { describe, expect, it } from "vitest";
import { loader } from "~/routes/pliki.$";
import { storage } from "~/services/storage.server";
import { request, settle } from "../helpers";

const open = (key: string) =>
  settle(() => loader({ request: request(`/pliki/${key}`), params: { "*": key }, context: {} }));

describe("/pliki", () => {
  it.each([
    ["stare/strona.html", "text/html", "<script>alert(document.cookie)</script>"],
    ["stare/rysunek.svg", "image/svg+xml", '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
  ])("answers %s as a download that may run nothing", async (key, type, content) => {
    await storage().put(key, Buffer.from(content), type);
    const res = await open(key);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toBe("attachment");
    expect(res.headers.get("Content-Type")).toBe("application/octet-stream");
    expect(res.headers.get("Content-Security-Policy")).toMatch(/^default-src 'none'/);
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(await res.text()).toBe(content);
  });

  it("shows an image inline", async () => {
    await storage().put("zdjecia/a.jpg", Buffer.from([0xff, 0xd8, 0xff]), "image/jpeg");
    const res = await open("zdjecia/a.jpg");
    expect(res.headers.get("Content-Disposition")).toBe("inline");
    expect(res.headers.get("Content-Type")).toBe("image/jpeg");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });
});
