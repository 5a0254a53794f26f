import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ROUTE_FILES, canonicalPath, canonicalRedirect, fixedSegments } from "~/http/canonical.server";

describe("canonical addresses", () => {
  it("lists every route file, so a new route's words are made canonical too", () => {
    expect([...ROUTE_FILES].sort()).toEqual(readdirSync("app/routes").sort());
  });

  it("reads the fixed segments of a route file name", () => {
    expect(fixedSegments("aktualnosci.rss[.]xml.ts")).toEqual(["aktualnosci", "rss.xml"]);
    expect(fixedSegments("strefapastora.artykuly.$id_.podglad.tsx")).toEqual(["strefapastora", "artykuly", "podglad"]);
    expect(fixedSegments("_index.tsx")).toEqual([]);
  });

  it("sends every spelling of a page to one address", () => {
    for (const spelling of [
      "/Aktualnosci",
      "/AKTUALNOSCI",
      "/%61ktualnosci",
      "/%41ktualnosci",
      "/aktualnosci/",
      "//aktualnosci",
      "/aktualnosci//",
      "/Aktualnosci/",
    ]) {
      expect(canonicalPath(spelling), spelling).toBe("/aktualnosci");
    }
    expect(canonicalPath("/Onas/Swiadectwa/3")).toBe("/onas/swiadectwa/3");
    expect(canonicalPath("/aktualnosci/RSS.xml")).toBe("/aktualnosci/rss.xml");
    expect(canonicalPath("//")).toBe("/");
  });

  it("leaves canonical addresses, file addresses and identifiers as they are", () => {
    for (const path of [
      "/",
      "/aktualnosci",
      "/galeria/wieczerza-2024",
      "/pliki/aktualnosci/IMG_1.jpg",
      "/build/x.js",
    ]) {
      expect(canonicalPath(path), path).toBeNull();
    }
    // Only the route's own words change case: a slug is not a route word.
    expect(canonicalPath("/galeria/Wieczerza")).toBeNull();
    // An escape of a reserved character is kept (in upper case).
    expect(canonicalPath("/galeria/a%2fb")).toBe("/galeria/a%2Fb");
  });

  it("redirects reads only, keeping the query string, and never off the site", () => {
    expect(canonicalRedirect("GET", "/Aktualnosci/?strona=2")).toBe("/aktualnosci?strona=2");
    expect(canonicalRedirect("HEAD", "/kontakt/")).toBe("/kontakt");
    expect(canonicalRedirect("POST", "/kontakt/")).toBeNull();
    expect(canonicalRedirect("GET", "//evil.example/")).toBe("/evil.example");
    expect(canonicalRedirect("GET", "/kontakt?x=1")).toBeNull();
  });

  it("decodes a long run of escapes in linear time", () => {
    const started = performance.now();
    expect(canonicalPath("/" + "%61".repeat(100_000) + "%")).not.toBeNull();
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
