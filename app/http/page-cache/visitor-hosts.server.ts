// The names visitors ask public pages by, while PUBLIC_URL is unset: pages
// then print the host and are kept per host, so the page warmer renders the
// main pages for the names most asked for (an instance cannot know its
// public name otherwise). Counted on pages served or kept, never on probes
// such as /readyz. Bounded: at most `maxTracked` names are counted, and one
// seen only once gives way to a new one, so a stream of made-up hosts never
// pushes out the name visitors use.

export function createVisitorHosts(maxTracked = 64) {
  const counts = new Map<string, number>();

  return {
    /** A page was served or kept for this host (as the cache key holds it). */
    seen(host: string) {
      const n = counts.get(host);
      if (n !== undefined) {
        counts.set(host, n + 1);
        return;
      }
      if (counts.size >= maxTracked) {
        for (const [name, count] of counts) {
          if (count === 1) {
            counts.delete(name);
            break;
          }
        }
        if (counts.size >= maxTracked) return;
      }
      counts.set(host, 1);
    },
    /** The `n` hosts asked for most, most first. */
    top(n: number): string[] {
      return [...counts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([host]) => host);
    },
  };
}
