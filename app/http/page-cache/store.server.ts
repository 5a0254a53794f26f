// The kept pages: bounded by bytes, the least recently used going first, and
// only pages of the current content version.
import type { KeptPage } from "~/http/page-cache/kept-page.server";

export function createPageStore(maxBytes: number) {
  // A Map keeps insertion order: the first entry is the least recently used.
  const pages = new Map<string, KeptPage>();
  let bytes = 0;

  function drop(page: KeptPage) {
    pages.delete(page.key);
    bytes -= page.bytes;
  }

  return {
    /** Keeps a page rendered under `version` (the current one), making room by dropping the oldest. */
    keep(page: KeptPage, version: string | null) {
      if (page.bytes > maxBytes || page.version !== version) return;
      const old = pages.get(page.key);
      if (old) drop(old);
      pages.set(page.key, page);
      bytes += page.bytes;
      for (const oldest of pages.values()) {
        if (bytes <= maxBytes) break;
        drop(oldest);
      }
    },
    /** The page kept under this key for this version, now the most recently used. */
    get(key: string, version: string): KeptPage | null {
      const page = pages.get(key);
      if (!page || page.version !== version) return null;
      pages.delete(key);
      pages.set(key, page);
      return page;
    },
    /** Forgets every page (they are all older than a new content version). */
    clear() {
      pages.clear();
      bytes = 0;
    },
    size: () => ({ bytes, pages: pages.size }),
  };
}
