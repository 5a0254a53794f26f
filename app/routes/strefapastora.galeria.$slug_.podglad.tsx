import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { FlashMessage } from "~/components/forms";
import { readFlash } from "~/http/flash.server";
import { titleFromPreviewPath } from "~/http/album-request.server";
import { getGalleryByTitle } from "~/features/galleries/galleries.server";
import { GalleryView } from "~/features/galleries/gallery-view";
import { PreviewBar } from "~/features/publishing/publish-controls";
import { seo } from "~/features/seo/seo";
import { UNKNOWN_GALLERY_REDIRECT, pastorGalleryPath } from "~/lib/paths";

// The album as visitors will see it, also while it is a draft or scheduled:
// its public address sends everyone to the album list until then.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const title = titleFromPreviewPath(request);
  const gallery = title === null ? null : await getGalleryByTitle(title, { withUnpublished: true });
  if (!gallery) throw redirect(UNKNOWN_GALLERY_REDIRECT);
  const { flash, headers } = await readFlash(request);
  return data({ gallery, flash, backTo: pastorGalleryPath(gallery.title) }, { headers });
}

// The pastor area is never indexed (seo() says noindex there).
export const meta: MetaFunction<typeof loader> = (args) =>
  seo(args, { page: args.data ? `Podgląd: ${args.data.gallery.title}` : undefined });

export default function GalleryPreview() {
  const { gallery, flash, backTo } = useLoaderData<typeof loader>();
  return (
    <>
      <div className="page">
        <FlashMessage message={flash} />
        <PreviewBar publication={gallery.publication} />
      </div>
      <GalleryView gallery={gallery} backTo={backTo} />
    </>
  );
}
