// Remix's default browser entry, plus two steps: what the pastor typed before
// the script ran survives hydration (see typed-before-hydration.ts), and the
// stylesheets the server inlined are rendered again from the page's own text.
import { RemixBrowser } from "@remix-run/react";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { keepTypedBeforeHydration } from "~/lib/typed-before-hydration";
import { DocumentContext, inlinedStylesheets } from "~/lib/document-context";

keepTypedBeforeHydration();
// The page's inlined stylesheets, so that hydration renders the same <style>.
const inlineCss = inlinedStylesheets(document);

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <DocumentContext.Provider value={{ nonce: "", inlineCss, publicScript: "" }}>
        <RemixBrowser />
      </DocumentContext.Provider>
    </StrictMode>,
  );
});
