import { useActionData, useLoaderData } from "@remix-run/react";
import type { EditorFormReply, EditorPageData } from "~/features/galleries/editor.server";
import { FlashMessage } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { CsrfInput, PastorBar } from "~/components/pastor";
import { AlbumFields } from "~/features/galleries/editor/album-fields";
import { ImageList } from "~/features/galleries/editor/image-list";
import { PhotoUpload } from "~/features/galleries/editor/photo-upload";
import { KEPT_PARAM } from "~/features/kept-forms/messages";
import { PublicationBadge, PublishAtField, SaveDraftButton } from "~/features/publishing/publish-controls";

/**
 * The album form of /strefapastora/galeria/dodaj and /edytuj/{slug}. It is
 * one plain form: without JavaScript every button posts everything (typed
 * values, chosen files) and the page comes back from the server's draft.
 * The page is rendered on the server only, never hydrated: a small script of
 * its own (album-script.ts) sends photos one per request with a progress bar
 * each, lets photos be dragged (mouse, touch, keyboard) and sends the form's
 * buttons without leaving the page. The `data-` attributes are what it needs
 * of the page's data.
 */
export function GalleryEditor() {
  const data = useLoaderData<EditorPageData>();
  const actionData = useActionData<EditorFormReply>();
  const values = actionData?.values ?? data.values;
  const feedback = actionData?.feedback ?? data.feedback;

  const formAction = data.draftId ? `${data.pageUrl}?szkic=${encodeURIComponent(data.draftId)}` : data.pageUrl;
  const heading = data.mode === "add" ? "Dodawanie galerii zdjęć" : "Edytowanie galerii zdjęć";

  return (
    <section className="page pastor gallery-editor">
      <PastorBar email={data.email} />
      <BackLink to={data.backTo} />
      <h1>{heading}</h1>
      <FlashMessage message={data.flash} />
      <form
        method="post"
        action={formAction}
        encType="multipart/form-data"
        className="form gallery-form"
        data-page-url={data.pageUrl}
        data-draft-id={data.draftId ?? undefined}
        data-album-title={data.mode === "edit" ? (data.albumTitle ?? undefined) : undefined}
      >
        <CsrfInput />
        {data.keptKey ? <input type="hidden" name={KEPT_PARAM} value={data.keptKey} /> : null}
        {data.mode === "edit" ? (
          <>
            <input type="hidden" name="version" value={feedback?.conflict?.version ?? data.version ?? ""} />
            <input type="hidden" name="albumId" value={data.albumId ?? ""} />
          </>
        ) : null}
        <AlbumFields values={values} feedback={feedback} />
        <PhotoUpload maxFiles={data.maxFiles} feedback={feedback} />

        <ImageList items={data.images} />

        <PublishAtField id="publish-at" defaultValue={values.publishAt} error={feedback?.fieldErrors?.publishAt} />
        {data.publication ? (
          <p>
            Stan: <PublicationBadge publication={data.publication} />
          </p>
        ) : null}
        <div className="form-buttons">
          <button type="submit" name="intent" value="save">
            {feedback?.conflict ? "zapisz moją wersję" : "zapisz"}
          </button>
          <SaveDraftButton />
        </div>
      </form>
    </section>
  );
}
