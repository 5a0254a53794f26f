// Code that reads a stranger's text (a request header, an article, a form)
// in linear time. Node serves every visitor from one thread: a check that
// backtracks takes seconds to hours on these inputs, and the whole site
// waits. A second is a wide margin for work that takes microseconds, so
// the bound does not flake on a busy machine.
import { describe, expect, it } from "vitest";
import { excerpt } from "~/features/articles/articles.server";
import { passwordProblem } from "~/features/auth/password-rule.server";
import { canonicalPath } from "~/features/seo/seo";
import { parseHost } from "~/http/host.server";
import { splitLinks } from "~/lib/text";
import { multipartBoundary } from "~/services/upload.server";

function within1s<T>(work: () => T): T {
  const started = performance.now();
  const result = work();
  expect(performance.now() - started).toBeLessThan(1000);
  return result;
}

describe("parseHost", () => {
  it.each([
    ["localhost", "localhost", null],
    ["127.0.0.1:3000", "127.0.0.1", 3000],
    ["Zbor.Example.org", "zbor.example.org", null],
    ["zbor.example.org.:443", "zbor.example.org.", 443],
    ["[::1]:8080", "[::1]", 8080],
    ["app_1:3000", "app_1", 3000],
    ["x:65535", "x", 65535],
  ])("reads %s", (value, name, port) => {
    expect(parseHost(value)).toEqual({ name, port });
  });

  it.each([
    "",
    "x:0",
    "x:65536",
    "x:99999",
    "x:80a",
    "x:",
    "x:-1",
    "a..b",
    ".a",
    "a b",
    "a/b",
    "a@b",
    "[::1",
    "[zz::1]",
    "[::1]x",
    `${"a".repeat(64)}.pl`,
    "a".repeat(300),
  ])("refuses %j", (value) => {
    expect(parseHost(value)).toBeNull();
  });

  it("answers at once for long hostile hosts of every shape", () => {
    // The shape that once took hours: letters and a character the check refuses at the end.
    expect(within1s(() => parseHost(`${"a".repeat(40)}!`))).toBeNull();
    expect(within1s(() => parseHost(`${"a".repeat(40)}_`))).toEqual({ name: `${"a".repeat(40)}_`, port: null });
    const shapes = [
      `${"a".repeat(100_000)}!`,
      `${"a.".repeat(50_000)}!`,
      `${"a-".repeat(50_000)}!`,
      `${"a_".repeat(50_000)}!`,
      `${"a".repeat(62)}.`.repeat(2000) + "!",
      `[${":".repeat(100_000)}`,
      `x:${"9".repeat(100_000)}`,
      `${"0".repeat(100_000)}:`,
    ];
    for (const host of shapes) expect(within1s(() => parseHost(host))).toBeNull();
  });
});

describe("text from articles and forms", () => {
  const punctuation = "!.,;:?)]}'";

  it("finds links in 100 KB of punctuation after an address", () => {
    for (const p of punctuation) {
      const tail = p.repeat(100_000);
      const parts = within1s(() => splitLinks(`https://x.pl/${tail}a ok`));
      expect(parts[0]).toEqual({ kind: "link", href: `https://x.pl/${tail}a` });
      const trailing = within1s(() => splitLinks(`see https://x.pl/a${tail}`));
      expect(trailing).toEqual([
        { kind: "text", value: "see " },
        { kind: "link", href: "https://x.pl/a" },
        { kind: "text", value: tail },
      ]);
    }
  });

  it("cuts an excerpt of 100 KB of punctuation and spaces", () => {
    expect(within1s(() => excerpt(`${"a".repeat(100)}${" .,;:–-".repeat(15_000)}b`))).toBe(`${"a".repeat(100)}…`);
  });

  it("reads a path with 100 KB of slashes", () => {
    expect(within1s(() => canonicalPath(`/galeria${"/".repeat(100_000)}`, ""))).toBe("/galeria");
    expect(within1s(() => canonicalPath(`/${"/".repeat(100_000)}a`, ""))).toBe(`/${"/".repeat(100_000)}a`);
  });

  it("checks a password padded with symbols up to its longest", () => {
    expect(within1s(() => passwordProblem(`${"!1 ".repeat(160)}password${"!1 ".repeat(160)}`))).toBe("common");
    expect(within1s(() => passwordProblem(`${"!1 ".repeat(340)}x`))).toBeNull();
    expect(passwordProblem("!!!password123!!!")).toBe("common");
  });

  it("reads a multipart boundary after 100 KB of spaces", () => {
    expect(within1s(() => multipartBoundary(`multipart/form-data${" ".repeat(100_000)}x`))).toBeNull();
    expect(within1s(() => multipartBoundary(`multipart/form-data;${" ".repeat(100_000)}boundary=abc`))).toBe("abc");
    expect(multipartBoundary("multipart/form-data; boundary=----x")).toBe("----x");
    expect(multipartBoundary("multipart/form-data; charset=utf-8; boundary=x")).toBeNull();
    expect(multipartBoundary("text/plain; boundary=x")).toBeNull();
    expect(multipartBoundary("multipart/form-data; boundary=")).toBeNull();
  });
});
