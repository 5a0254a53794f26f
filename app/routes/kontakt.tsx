import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { TransferDetails } from "~/features/giving/donation";
import { JsonLd, useOrigin } from "~/features/seo/json-ld";
import { MapEmbed } from "~/components/map";
import { church } from "~/content/church";
import { churchJsonLd } from "~/features/seo/seo";
import { paymentCodeSrc } from "~/features/giving/payment-qr.server";
import { pageTitle, seo } from "~/features/seo/seo";

export function loader() {
  return { paymentCodeSrc: paymentCodeSrc() };
}

export const meta: MetaFunction = (args) => seo(args, { title: pageTitle("Kontakt") });

export default function Contact() {
  const { paymentCodeSrc } = useLoaderData<typeof loader>();
  const { address } = church;
  const origin = useOrigin();
  return (
    <div className="page">
      <JsonLd data={churchJsonLd(origin)} />
      <h1>Kontakt</h1>
      <dl className="details">
        <dt>E-mail</dt>
        <dd>
          <a href={`mailto:${church.email}`}>{church.email}</a>
        </dd>
        <dt>Telefon</dt>
        {church.phones.map((phone) => (
          <dd key={phone}>
            <span className="flag-pl" role="img" aria-label="Polska" />{" "}
            <a href={`tel:${phone.replace(/\s/g, "")}`}>{phone}</a>
          </dd>
        ))}
        <dt>Adres</dt>
        <dd>
          {church.footerName}
          <br />
          {address.street}
          <br />
          {address.postalCode} {address.city}
        </dd>
        <dt>NIP</dt>
        <dd>{church.nip}</dd>
        <dt>REGON</dt>
        <dd>{church.regon}</dd>
      </dl>
      <h2>Dane do przelewu</h2>
      <TransferDetails paymentCodeSrc={paymentCodeSrc} withHolder />
      <p>
        <a href={church.videoChannelUrl} target="_blank" rel="noopener noreferrer">
          Nasz kanał wideo
        </a>
      </p>
      <MapEmbed />
    </div>
  );
}
