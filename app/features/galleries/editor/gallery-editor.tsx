import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useRef } from "react";
import type { EditorFormReply, EditorPageData } from "~/features/galleries/editor.server";
import { FlashMessage } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { CsrfInput, PastorBar, useCsrfToken } from "~/components/pastor";
import { AlbumFields } from "~/features/galleries/editor/album-fields";
import { ImageList } from "~/features/galleries/editor/image-list";
import { PhotoUpload } from "~/features/galleries/editor/photo-upload";
import { useAlbumPhotos } from "~/features/galleries/editor/use-album-photos";
import { useHydrated } from "~/features/galleries/editor/use-hydrated";
import { KEPT_PARAM } from "~/features/kept-forms/messages";
import { PublicationBadge, PublishAtField, SaveDraftButton } from "~/features/publishing/publish-controls";

/**
 * The album form of /strefapastora/galeria/dodaj and /edytuj/{slug}. It is
 * one plain form: without JavaScript every button posts everything (typed
 * values, chosen files) and the page comes back from the server's draft.
 * With JavaScript, 'dodaj zdjęcie' sends the files one per request with a
 * progress bar each, and photos can also be dragged (mouse, touch, keyboard)
 * (useAlbumPhotos).
 */
export function GalleryEditor() {
  const data = useLoaderData<EditorPageData>();
  const actionData = useActionData<EditorFormReply>();
  const hydrated = useHydrated();
  const csrf = useCsrfToken();
  const formRef = useRef<HTMLFormElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const photos = useAlbumPhotos(data, { csrf, formRef, fileRef });

  const values = actionData?.values ?? data.values;
  // `{ error }` alone is the answer while the database is away (app/http/pastor-door.server.ts):
  // shown over the form, which still holds everything typed.
  const outage = (actionData as { error?: unknown } | undefined)?.error;
  const feedback = actionData?.feedback ?? (typeof outage === "string" ? { error: outage } : data.feedback);
  const { busy } = photos;

  const formAction = data.draftId ? `${data.pageUrl}?szkic=${encodeURIComponent(data.draftId)}` : data.pageUrl;
  const heading = data.mode === "add" ? "Dodawanie galerii zdjęć" : "Edytowanie galerii zdjęć";

  return (
    <section className="page pastor gallery-editor">
      <PastorBar email={data.email} />
      <BackLink to={data.backTo} />
      <h1>{heading}</h1>
      <FlashMessage message={data.flash} />
      <Form method="post" action={formAction} encType="multipart/form-data" className="form gallery-form" ref={formRef}>
        <CsrfInput />
        {data.keptKey ? <input type="hidden" name={KEPT_PARAM} value={data.keptKey} /> : null}
        {data.mode === "edit" ? (
          <>
            <input type="hidden" name="version" value={feedback?.conflict?.version ?? data.version ?? ""} />
            <input type="hidden" name="albumId" value={data.albumId ?? ""} />
          </>
        ) : null}
        <AlbumFields values={values} feedback={feedback} />
        <PhotoUpload
          fileRef={fileRef}
          hydrated={hydrated}
          maxFiles={data.maxFiles}
          photos={photos}
          feedback={feedback}
        />

        <ImageList items={photos.items} sortable={hydrated} busy={busy} onDragEnd={photos.onDragEnd} />

        <PublishAtField id="publish-at" defaultValue={values.publishAt} error={feedback?.fieldErrors?.publishAt} />
        {data.publication ? (
          <p>
            Stan: <PublicationBadge publication={data.publication} />
          </p>
        ) : null}
        <div className="form-buttons">
          <button type="submit" name="intent" value="save" disabled={busy}>
            {feedback?.conflict ? "zapisz moją wersję" : "zapisz"}
          </button>
          <SaveDraftButton disabled={busy} />
        </div>
      </Form>
    </section>
  );
}
