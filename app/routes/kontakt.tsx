import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { TransferDetails } from "~/features/giving/donation";
import { JsonLd, useOrigin } from "~/features/seo/json-ld";
import { MapEmbed } from "~/components/map";
import { churchJsonLd } from "~/features/seo/structured-data";
import { pageFacts } from "~/features/church/facts.server";
import { currentMeetings } from "~/features/events/events.server";
import { seo } from "~/features/seo/seo";

export async function loader() {
  const [facts, meetings] = await Promise.all([pageFacts(), currentMeetings()]);
  return { ...facts, meetings };
}

export const meta: MetaFunction = (args) => seo(args, { page: "Kontakt" });

export default function Contact() {
  const { facts, paymentCodeSrc, meetings } = useLoaderData<typeof loader>();
  const { address } = facts;
  const origin = useOrigin();
  return (
    <div className="page">
      <JsonLd data={churchJsonLd(origin, facts, meetings)} />
      <h1>Kontakt</h1>
      <dl className="details">
        <dt>E-mail</dt>
        <dd>
          <a href={`mailto:${facts.email}`}>{facts.email}</a>
        </dd>
        {facts.phones.length ? <dt>Telefon</dt> : null}
        {facts.phones.map((phone) => (
          <dd key={phone.tel}>
            <span className="flag-pl" role="img" aria-label="Polska" /> <a href={phone.tel}>{phone.display}</a>
          </dd>
        ))}
        <dt>Adres</dt>
        <dd>
          {facts.footerName}
          <br />
          {address.street}
          <br />
          {address.postalCode} {address.city}
        </dd>
        {facts.nip ? (
          <>
            <dt>NIP</dt>
            <dd>{facts.nip}</dd>
          </>
        ) : null}
        {facts.regon ? (
          <>
            <dt>REGON</dt>
            <dd>{facts.regon}</dd>
          </>
        ) : null}
      </dl>
      {facts.bank ? (
        <>
          <h2>Dane do przelewu</h2>
          <TransferDetails bank={facts.bank} paymentCodeSrc={paymentCodeSrc} withHolder />
        </>
      ) : null}
      <p>
        <a href={facts.videoChannelUrl} target="_blank" rel="noopener noreferrer">
          Nasz kanał wideo
        </a>
      </p>
      <MapEmbed src={facts.mapEmbedUrl} />
    </div>
  );
}
