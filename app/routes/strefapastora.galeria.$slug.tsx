import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { ConfirmButton, ConfirmPage } from "~/components/confirm";
import { FlashMessage, FormError } from "~/components/forms";
import { PhotoGrid } from "~/features/galleries/photo-grid";
import { BackLink } from "~/components/layout";
import { PastorBar } from "~/components/pastor";
import { readFlash, redirectWithFlash } from "~/http/flash.server";
import { readForm, titleFromDetailPath } from "~/http/album-request.server";
import { DELETE_GALLERY_QUESTION } from "~/features/galleries/constants";
import { seo } from "~/features/seo/seo";
import { displayDate } from "~/lib/text";
import { deleteGallery, getGalleryByTitle } from "~/features/galleries/galleries.server";
import {
  PASTOR_GALLERIES_PATH,
  UNKNOWN_GALLERY_REDIRECT,
  editGalleryPath,
  galleryPreviewPath,
  pastorGalleryPath,
} from "~/lib/paths";
import { PublicationBadge } from "~/features/publishing/publish-controls";

export const meta: MetaFunction<typeof loader> = (args) => seo(args, { page: args.data?.gallery.title });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const title = titleFromDetailPath(request);
  const gallery = title === null ? null : await getGalleryByTitle(title, { withUnpublished: true });
  if (!gallery) throw redirect(UNKNOWN_GALLERY_REDIRECT);
  const { flash, headers } = await readFlash(request);
  return data(
    {
      email: user.email,
      csrf: user.csrf,
      flash,
      gallery,
      path: pastorGalleryPath(gallery.title),
      editPath: editGalleryPath(gallery.title),
      previewPath: galleryPreviewPath(gallery.title),
    },
    { headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const title = titleFromDetailPath(request);
  const form = await readForm(request);
  try {
    if (!form.ok) return data({ confirm: false, error: form.message }, { status: form.status });
    if (form.fields.get("intent") !== "delete")
      return data({ confirm: false, error: "Nieznane polecenie formularza." }, { status: 400 });
    // Without JavaScript there was no dialog: ask on a page of its own first.
    if (form.fields.get("confirmed") !== "1") return { confirm: true, error: null };
    if (title === null || !(await deleteGallery({ title }, undefined, { actor: user })))
      return redirect(UNKNOWN_GALLERY_REDIRECT);
    return redirectWithFlash(PASTOR_GALLERIES_PATH, `Przeniesiono galerię „${title}” do kosza.`);
  } finally {
    if (form.ok) await form.cleanup();
  }
}

export default function PastorGallery() {
  const { email, flash, gallery, path, editPath, previewPath } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <BackLink to={PASTOR_GALLERIES_PATH} />
      <FlashMessage message={flash} />
      <FormError message={actionData?.error} />
      {actionData?.confirm ? <ConfirmPage action={path} question={DELETE_GALLERY_QUESTION} cancelTo={path} /> : null}
      <h1>{gallery.title}</h1>
      {gallery.description ? <p className="album-description">{gallery.description}</p> : null}
      <p className="date">{displayDate(gallery.date)}</p>
      <p>
        <PublicationBadge publication={gallery.publication} />
      </p>
      <div className="pastor-actions">
        <a className="button secondary" href={previewPath}>
          podgląd
        </a>
        <a className="button secondary" href={editPath}>
          edytuj
        </a>
        <ConfirmButton action={path} question={DELETE_GALLERY_QUESTION}>
          usuń
        </ConfirmButton>
      </div>
      <PhotoGrid title={gallery.title} images={gallery.images} />
    </section>
  );
}
