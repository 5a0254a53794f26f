import { NavLink } from "@remix-run/react";
import { TIME_ZONE, navigation } from "~/content/site";
import { useSiteNames } from "~/features/seo/json-ld";
import { Logo } from "~/components/logo";
import { yearIn } from "~/lib/text";
import { HOME_PATH, LOGIN_PATH, PRIVACY_PATH } from "~/lib/paths";

export function SiteHeader() {
  const site = useSiteNames();
  return (
    <header className="site-header">
      <a className="brand" href={HOME_PATH}>
        <Logo size={44} />
        <span>
          {site.headerLine1}
          <br />
          {site.headerLine2}
        </span>
      </a>
      {/* A checkbox keeps the mobile menu usable without JavaScript. */}
      <input type="checkbox" id="nav-toggle" className="nav-toggle" aria-label="Menu" aria-controls="site-nav" />
      {/* eslint-disable-next-line jsx-a11y/label-has-associated-control -- only the visible face of the checkbox, which carries aria-label */}
      <label htmlFor="nav-toggle" className="nav-toggle-label" aria-hidden="true">
        <span className="burger" />
      </label>
      <nav id="site-nav" className="site-nav" aria-label="Menu główne">
        <ul>
          {navigation.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end={item.to === HOME_PATH} prefetch="none">
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}

export function SiteFooter({ showPastorLink }: { showPastorLink: boolean }) {
  const site = useSiteNames();
  return (
    <footer className="site-footer">
      <p>
        Copyright © {yearIn(TIME_ZONE)} {site.footerName}
      </p>
      <p className="footer-links">
        <a href={PRIVACY_PATH}>Polityka prywatności</a>
        {showPastorLink ? <a href={LOGIN_PATH}>Strefa pastora</a> : null}
      </p>
    </footer>
  );
}

export function BackLink({ to, label = "wróć" }: { to: string; label?: string }) {
  return (
    <a className="back-link" href={to}>
      <span aria-hidden="true">←</span> {label}
    </a>
  );
}
