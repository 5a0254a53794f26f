import { createContext, useContext } from "react";

/**
 * What the server hands the document shell: the per-request CSP nonce and
 * the site stylesheet's text for inlining on public pages. Empty in the
 * browser, where neither is needed.
 */
export interface DocumentContextValue {
  nonce: string;
  inlineCss: string | null;
}

export const DocumentContext = createContext<DocumentContextValue>({ nonce: "", inlineCss: null });

export const useNonce = () => useContext(DocumentContext).nonce;
export const useInlineCss = () => useContext(DocumentContext).inlineCss;
