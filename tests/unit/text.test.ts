import { describe, expect, it } from "vitest";
import { excerpt } from "~/features/articles/articles.server";
import { dateFormat, describe as description, displayDate, splitLinks, todayIn, yearIn } from "~/lib/text";
import { galleryPath, titleFromSlug } from "~/lib/paths";

describe("displayDate", () => {
  it("shows ISO dates as they are", () => {
    expect(displayDate("2025-06-08")).toBe("2025-06-08");
  });
  it("shows legacy text only up to the first comma", () => {
    expect(displayDate("12 września 2020, sobota, wieczór")).toBe("12 września 2020");
  });
});

describe("splitLinks", () => {
  it("turns http and https addresses into links and leaves the rest as text", () => {
    expect(splitLinks("Zobacz https://example.org/a?b=1, oraz http://x.pl.")).toEqual([
      { kind: "text", value: "Zobacz " },
      { kind: "link", href: "https://example.org/a?b=1" },
      { kind: "text", value: ", oraz " },
      { kind: "link", href: "http://x.pl" },
      { kind: "text", value: "." },
    ]);
  });
  it("does not link other schemes", () => {
    expect(splitLinks("javascript:alert(1) ftp://x")).toEqual([{ kind: "text", value: "javascript:alert(1) ftp://x" }]);
  });
});

describe("excerpt", () => {
  it("keeps short texts whole and flattens new lines", () => {
    expect(excerpt("Ala\n\nma kota")).toBe("Ala ma kota");
  });
  it("cuts long texts at a word boundary with an ellipsis", () => {
    const text = "słowo ".repeat(100);
    const e = excerpt(text);
    expect(e.endsWith("…")).toBe(true);
    expect(e.length).toBeLessThanOrEqual(181);
    expect(e).not.toMatch(/ …$/);
  });
});

describe("search-result description", () => {
  it("is cut like an excerpt, shorter, with no comma before the ellipsis", () => {
    const text = `${"Zbór, ".repeat(40)}koniec`;
    const d = description(text);
    expect(d.length).toBeLessThanOrEqual(156);
    expect(d).toMatch(/Zbór…$/);
    expect(description("Krótki opis.")).toBe("Krótki opis.");
  });
});

describe("gallery slugs", () => {
  it.each(["Obóz 2025", "a/b?c#d&e%f+g", "Zażółć gęślą jaźń 🙏", "100%"])("round-trips %s", (title) => {
    const path = galleryPath(title);
    expect(path.startsWith("/galeria/")).toBe(true);
    expect(path.slice("/galeria/".length)).not.toMatch(/[/?#]/);
    expect(titleFromSlug(path.slice("/galeria/".length))).toBe(title);
  });
  it("refuses malformed and oversized slugs", () => {
    expect(titleFromSlug("%E0%A4%A")).toBeNull();
    expect(titleFromSlug("%00")).toBeNull();
    expect(titleFromSlug("a%0Ab")).toBeNull();
    expect(titleFromSlug("a".repeat(5000))).toBeNull();
    expect(titleFromSlug("")).toBeNull();
  });
});

describe("todayIn", () => {
  it("uses the Warsaw calendar date, not UTC", () => {
    // 23:30 UTC on 31 Dec is already 1 Jan in Warsaw.
    expect(todayIn("Europe/Warsaw", new Date("2025-12-31T23:30:00Z"))).toBe("2026-01-01");
  });
});

describe("yearIn and dateFormat", () => {
  it("gives the Warsaw year at New Year, with one formatter per zone reused", () => {
    expect(yearIn("Europe/Warsaw", new Date("2025-12-31T23:30:00Z"))).toBe(2026);
    expect(yearIn("UTC", new Date("2025-12-31T23:30:00Z"))).toBe(2025);
    // The page cache asks on every request: the formatter is made once.
    expect(dateFormat("en-CA", { timeZone: "Europe/Warsaw", year: "numeric" })).toBe(
      dateFormat("en-CA", { timeZone: "Europe/Warsaw", year: "numeric" }),
    );
    expect(dateFormat("en-CA", { timeZone: "UTC", year: "numeric" })).not.toBe(
      dateFormat("en-CA", { timeZone: "Europe/Warsaw", year: "numeric" }),
    );
  });
});
