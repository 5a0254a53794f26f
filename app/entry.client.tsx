// Remix's default browser entry, plus one step: what the pastor typed before
// the script ran survives hydration (see typed-before-hydration.ts).
import { RemixBrowser } from "@remix-run/react";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { keepTypedBeforeHydration } from "~/lib/typed-before-hydration";

keepTypedBeforeHydration();

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
