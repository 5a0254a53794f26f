import { createContext, useContext } from "react";
import type { BrowserScript } from "~/lib/browser-scripts";

/**
 * What the server hands the document shell: the per-request CSP nonce, and
 * the site stylesheet's text and the script that public pages inline. Empty
 * in the browser, where none is needed (hydrated pages run React instead),
 * so the pastor pages' code does not carry the public script's text; and the
 * addresses of the plain scripts of pages that are not hydrated.
 */
export interface DocumentContextValue {
  nonce: string;
  inlineCss: string | null;
  publicScript: string;
  browserScripts?: Partial<Record<BrowserScript, string>>;
}

export const DocumentContext = createContext<DocumentContextValue>({ nonce: "", inlineCss: null, publicScript: "" });

export const useNonce = () => useContext(DocumentContext).nonce;
export const useInlineCss = () => useContext(DocumentContext).inlineCss;
export const usePublicScript = () => useContext(DocumentContext).publicScript;
export const useBrowserScripts = () => useContext(DocumentContext).browserScripts ?? {};
