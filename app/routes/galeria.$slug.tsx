import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GalleryView } from "~/features/galleries/gallery-view";
import { seo } from "~/features/seo/seo";
import { describe } from "~/lib/text";
import { getGalleryByTitle } from "~/features/galleries/galleries.server";
import { titleFromSlug } from "~/lib/paths";
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
        page: args.data.gallery.title,
        description: describe(args.data.gallery.description || `Galeria zdjęć: ${args.data.gallery.title}`),
        image: args.data.gallery.cover,
        imageAlt: `Galeria zdjęć: ${args.data.gallery.title}`,
      })
    : seo(args);

export default function Gallery() {
  const { gallery } = useLoaderData<typeof loader>();
  return <GalleryView gallery={gallery} backTo={GALLERIES_PATH} />;
}
