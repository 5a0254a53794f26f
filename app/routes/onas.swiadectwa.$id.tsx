import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BackLink } from "~/components/layout";
import { getTestimony } from "~/features/church/about.server";
import { seo } from "~/features/seo/seo";
import { describe } from "~/lib/text";
import { ABOUT_PATH } from "~/lib/paths";

export async function loader({ params }: LoaderFunctionArgs) {
  const testimony = await getTestimony(params.id ?? "");
  if (!testimony) throw redirect(ABOUT_PATH);
  return { testimony };
}

export const meta: MetaFunction<typeof loader> = (args) =>
  seo(
    args,
    args.data
      ? {
          page: `Świadectwo: ${args.data.testimony.title}`,
          description: describe(args.data.testimony.text),
        }
      : {},
  );

export default function TestimonyPage() {
  const { testimony } = useLoaderData<typeof loader>();
  return (
    <article className="page article">
      <BackLink to={ABOUT_PATH} />
      <h1>{testimony.title}</h1>
      <div className="prose">{testimony.text}</div>
      {testimony.author ? <p className="testimony-author">{testimony.author}</p> : null}
    </article>
  );
}
