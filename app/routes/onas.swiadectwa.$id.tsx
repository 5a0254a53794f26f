import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BackLink } from "~/components/layout";
import { church } from "~/content/church";
import { pageTitle, seo } from "~/features/seo/seo";
import { describe } from "~/lib/text";
import { ABOUT_PATH } from "~/lib/paths";

export function loader({ params }: LoaderFunctionArgs) {
  const testimony = church.testimonies.find((t) => String(t.id) === params.id);
  if (!testimony) throw redirect(ABOUT_PATH);
  return { testimony };
}

export const meta: MetaFunction<typeof loader> = (args) =>
  seo(
    args,
    args.data
      ? {
          title: pageTitle(`Świadectwo: ${args.data.testimony.name}`),
          description: describe(args.data.testimony.content),
        }
      : {},
  );

export default function TestimonyPage() {
  const { testimony } = useLoaderData<typeof loader>();
  return (
    <article className="page article">
      <BackLink to={ABOUT_PATH} />
      <h1>{testimony.name}</h1>
      <div className="prose">{testimony.content}</div>
    </article>
  );
}
