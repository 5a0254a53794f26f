// The names visitors ask pages by, counted for the page warmer while
// PUBLIC_URL is unset: the most asked first, in bounded memory, and a
// stream of made-up hosts (each seen once) never pushes out the real one.
import { describe, expect, it } from "vitest";
import { createVisitorHosts } from "~/http/page-cache/visitor-hosts.server";

describe("visitor hosts", () => {
  it("lists the hosts asked for most, most first", () => {
    const hosts = createVisitorHosts();
    for (const [host, n] of [
      ["a.example", 2],
      ["b.example", 5],
      ["c.example", 1],
      ["d.example", 3],
    ] as const) {
      for (let i = 0; i < n; i++) hosts.seen(host);
    }
    expect(hosts.top(3)).toEqual(["b.example", "d.example", "a.example"]);
  });

  it("keeps the real host through thousands of made-up ones, counting at most its bound", () => {
    const hosts = createVisitorHosts(8);
    hosts.seen("zbor.example.org");
    hosts.seen("zbor.example.org");
    for (let i = 0; i < 10_000; i++) hosts.seen(`x${i}.example`);
    hosts.seen("zbor.example.org");
    expect(hosts.top(1)).toEqual(["zbor.example.org"]);
    expect(hosts.top(100)).toHaveLength(8);
  });
});
