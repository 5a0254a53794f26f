import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PhotoGrid } from "~/features/galleries/photo-grid";
import { BackLink } from "~/components/layout";
import { pageTitle, seo } from "~/features/seo/seo";
import { describe, displayDate } from "~/lib/text";
import { getGalleryByTitle, titleFromSlug } from "~/features/galleries/galleries.server";
import { GALLERIES_PATH } from "~/lib/paths";

export async function loader({ request }: LoaderFunctionArgs) {
  const raw = new URL(request.url).pathname.slice(`${GALLERIES_PATH}/`.length);
  const title = titleFromSlug(raw);
  const gallery = title === null ? null : await getGalleryByTitle(title);
  if (!gallery) throw redirect(GALLERIES_PATH);
  return { gallery };
}

export const meta: MetaFunction<typeof loader> = (args) =>
  args.data
    ? seo(args, {
        title: pageTitle(args.data.gallery.title),
        description: describe(args.data.gallery.description || `Galeria zdjęć: ${args.data.gallery.title}`),
        image: args.data.gallery.cover,
        imageAlt: `Galeria zdjęć: ${args.data.gallery.title}`,
      })
    : seo(args);

export default function Gallery() {
  const { gallery } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <BackLink to={GALLERIES_PATH} />
      <h1>{gallery.title}</h1>
      {gallery.description ? <p>{gallery.description}</p> : null}
      <p className="date">{displayDate(gallery.date)}</p>
      <PhotoGrid title={gallery.title} images={gallery.images} />
    </div>
  );
}
