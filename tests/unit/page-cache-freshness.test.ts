// How long kept pages outlive a database that stopped answering (issue 27,
// item 1): served for up to 24 hours after the content version was last
// read, then no more; the header's stale-if-error says the same to a CDN.
import { describe, expect, it } from "vitest";
import { SHARED_CACHE } from "~/http/cache.server";
import { STALE_IF_ERROR_MS } from "~/http/page-cache.server";
import { createFreshness } from "~/http/page-cache/freshness.server";

const HOUR = 60 * 60 * 1000;

describe("kept pages while the content version cannot be read", () => {
  it("are served for 24 hours after the last successful read, and not after", () => {
    let now = 1_000_000;
    const freshness = createFreshness(() => now);
    expect(freshness.staleVersion()).toBeNull();
    freshness.confirm("v1");
    now += 24 * HOUR - 1;
    expect(freshness.staleVersion()).toBe("v1");
    now += 1;
    expect(freshness.staleVersion()).toBeNull();
  });

  it("count the 24 hours from the last read, also of an unchanged version", () => {
    let now = 0;
    const freshness = createFreshness(() => now);
    freshness.confirm("v1");
    now += 20 * HOUR;
    expect(freshness.confirm("v1")).toBe(false);
    now += 20 * HOUR;
    expect(freshness.staleVersion()).toBe("v1");
  });

  it("say the same to a CDN: stale-if-error of 24 hours", () => {
    expect(STALE_IF_ERROR_MS).toBe(24 * HOUR);
    expect(SHARED_CACHE).toContain(`stale-if-error=${STALE_IF_ERROR_MS / 1000}`);
  });
});
