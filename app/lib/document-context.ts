import { createContext, useContext } from "react";
import type { BrowserScript } from "~/lib/browser-scripts";

/**
 * What the server hands the document shell: the per-request CSP nonce, the
 * text of each stylesheet the page inlines, the script that public pages
 * inline, and the addresses of the plain scripts of pages that are not
 * hydrated. In the browser the stylesheets' text is read back from the page
 * (entry.client), so hydration renders the same `<style>`; the public
 * script's text stays on the server, where only pages without React use it.
 */
export interface DocumentContextValue {
  nonce: string;
  inlineCss: (href: string) => string | null;
  publicScript: string;
  browserScripts?: Partial<Record<BrowserScript, string>>;
}

export const DocumentContext = createContext<DocumentContextValue>({
  nonce: "",
  inlineCss: () => null,
  publicScript: "",
});

export const useNonce = () => useContext(DocumentContext).nonce;
export const useInlineCss = () => useContext(DocumentContext).inlineCss;
export const usePublicScript = () => useContext(DocumentContext).publicScript;
export const useBrowserScripts = () => useContext(DocumentContext).browserScripts ?? {};

/** The stylesheets the server inlined, by address, read from the page before hydration. */
export function inlinedStylesheets(doc: Document): DocumentContextValue["inlineCss"] {
  const texts = new Map<string, string>();
  for (const style of doc.querySelectorAll<HTMLStyleElement>("head > style[data-href]")) {
    texts.set(style.dataset.href ?? "", style.textContent ?? "");
  }
  return (href) => texts.get(href) ?? null;
}
