import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLocation,
  useMatches,
  useRouteError,
} from "@remix-run/react";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { type ReactNode, useEffect } from "react";
import { SiteFooter, SiteHeader } from "~/components/layout";
import { siteOrigin } from "~/services/config.server";
import { siteNamesForLayout } from "~/features/church/facts.server";
import { useBrowserScripts, useInlineCss, useNonce, usePublicScript } from "~/lib/document-context";
import type { BrowserScript } from "~/lib/browser-scripts";
import { HEAD_SCRIPT } from "~/lib/public-script";
import { restoreTypedAfterHydration } from "~/lib/typed-before-hydration";
import { type RootData, seo } from "~/features/seo/seo";
import { HOME_PATH, PASTOR_FACTS_PATH } from "~/lib/paths";
import siteStyles from "~/styles/app.css";
import { LOGO_ICON_HREF } from "~/components/logo";

function Icons() {
  return (
    <>
      <link rel="icon" href="/favicon.ico" sizes="32x32" />
      <link rel="icon" href={LOGO_ICON_HREF} type="image/svg+xml" />
    </>
  );
}

/** The origin of absolute addresses (canonical links, sharing tags, structured data) and the names the layout shows. */
export async function loader({ request }: LoaderFunctionArgs) {
  return { origin: siteOrigin(request), site: await siteNamesForLayout() } satisfies RootData;
}

// The origin does not change while a pastor works in the hydrated area; the
// names change only through the facts form.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction }) => formAction === PASTOR_FACTS_PATH;

// Routes without their own meta share this one; it follows the address.
export const meta: MetaFunction = (args) => seo(args);

/**
 * Routes that need React in the browser export `handle = { hydrate: true }`;
 * the deepest route that says either way decides, so a page inside the
 * hydrated pastor area may say `false` and name a plain script of its own
 * (`script`, app/lib/browser-scripts.ts) instead.
 */
export interface RouteHandle {
  hydrate?: boolean;
  script?: BrowserScript;
  /** The route's own stylesheets, after the site's (see Stylesheets). */
  styles?: string[];
}

function usePageCode(): { hydrate: boolean; script: BrowserScript | null; styles: string[] } {
  let hydrate = false;
  let script: BrowserScript | null = null;
  const styles = [siteStyles];
  for (const match of useMatches()) {
    const handle = match.handle as RouteHandle | undefined;
    if (handle?.hydrate !== undefined) hydrate = handle.hydrate;
    if (handle?.script) script = handle.script;
    if (handle?.styles) styles.push(...handle.styles);
  }
  return { hydrate, script: hydrate ? null : script, styles };
}

/**
 * The page's stylesheets, inline where their text is at hand: no
 * render-blocking request before the first screen. Linked otherwise (not
 * built, or a stylesheet the first page of a hydrated visit did not carry).
 * Routes declare them in `handle.styles`, not `links`, which Remix would
 * also fetch before every client-side navigation.
 */
function Stylesheets({ hrefs }: { hrefs: string[] }) {
  const inlineCss = useInlineCss();
  return hrefs.map((href) => {
    const text = inlineCss(href);
    return text === null ? (
      <link key={href} rel="stylesheet" href={href} />
    ) : (
      <style key={href} data-href={href} dangerouslySetInnerHTML={{ __html: text }} />
    );
  });
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const { hydrate, script, styles } = usePageCode();
  const scripts = useBrowserScripts();
  const scriptSrc = script ? scripts[script] : undefined;
  const publicScript = usePublicScript();
  const { pathname } = useLocation();
  return (
    <html lang="pl">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Stylesheets hrefs={styles} />
        <Icons />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: HEAD_SCRIPT }} />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Przejdź do treści
        </a>
        <SiteHeader />
        <main id="main">{children}</main>
        <SiteFooter showPastorLink={pathname === HOME_PATH} />
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : (
          <>
            <script nonce={nonce} dangerouslySetInnerHTML={{ __html: publicScript }} />
            {script && scriptSrc ? <script type="module" src={scriptSrc} nonce={nonce} /> : null}
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  // The root's effect runs once the whole page has hydrated.
  useEffect(restoreTypedAfterHydration, []);
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const [title, text] =
    status === 404
      ? ["Nie znaleziono strony", "Strona, której szukasz, nie istnieje lub została przeniesiona."]
      : status === 413
        ? ["Formularz jest zbyt duży", "Formularz jest zbyt duży. Wróć, skróć tekst i spróbuj ponownie."]
        : status >= 400 && status < 500
          ? ["Nieprawidłowe żądanie", "Nie możemy obsłużyć tego żądania."]
          : ["Wystąpił błąd", "Przepraszamy, coś poszło nie tak. Spróbuj ponownie później."];
  return (
    <section className="page error-page">
      <h1>{title}</h1>
      <p>{text}</p>
      <p>
        <a href={HOME_PATH}>Wróć na stronę główną</a>
      </p>
    </section>
  );
}
