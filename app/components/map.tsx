import { Embed } from "~/components/embed";

/** The embedded map, loaded only when scrolled near (it is the heaviest part of a page). */
export function MapEmbed({ src }: { src: string }) {
  return (
    <Embed
      className="map"
      title="Mapa dojazdu"
      src={src}
      loading="lazy"
      referrerPolicy="no-referrer-when-downgrade"
      width="600"
      height="400"
    />
  );
}
