import type { IframeHTMLAttributes } from "react";

/**
 * A third-party embed (the map, the calendar) that starts loading only after
 * the page's own load: on a slow connection it would otherwise take
 * bandwidth and a new connection from the page's text and first photo. The
 * iframe sits in a <noscript>: without JavaScript the browser shows it at
 * once; with it, the page's script (app/lib/public-script.ts) inserts the
 * same markup after `load`. The box keeps its height either way, so nothing
 * moves when the embed arrives.
 */
export function Embed({
  className,
  title,
  ...iframe
}: IframeHTMLAttributes<HTMLIFrameElement> & { className: string; title: string }) {
  return (
    <div className={`embed ${className}-box`}>
      <noscript className="embed">
        <iframe className={className} title={title} {...iframe} />
      </noscript>
    </div>
  );
}
