// 'Zdjęcia': the file input and 'dodaj zdjęcie', the progress of a batch
// on its way, and its report.
import type { RefObject } from "react";
import type { DraftFeedback } from "~/services/schema";
import { Report, UploadList } from "~/features/galleries/editor/upload-list";
import type { AlbumPhotos } from "~/features/galleries/editor/use-album-photos";

export function PhotoUpload({
  fileRef,
  hydrated,
  maxFiles,
  photos: { busy, uploads, summary, scriptError, uploadChosen, retryUpload },
  feedback,
}: {
  fileRef: RefObject<HTMLInputElement>;
  hydrated: boolean;
  maxFiles: number;
  photos: AlbumPhotos;
  /** The form's feedback, with the report of the last batch posted without JavaScript. */
  feedback: DraftFeedback | null | undefined;
}) {
  return (
    <fieldset className="photo-upload">
      <legend>Zdjęcia</legend>
      <p className="field">
        <label htmlFor="photos">Wybierz zdjęcia (JPEG, PNG lub WebP)</label>
        <input ref={fileRef} id="photos" type="file" name="zdjecia" accept="image/*" multiple />
        {hydrated ? null : (
          <span className="field-note">Najwyżej {maxFiles} zdjęć naraz; więcej dodaj w kolejnych częściach.</span>
        )}
      </p>
      <button
        type="submit"
        name="intent"
        value="upload"
        formNoValidate
        className="secondary"
        disabled={busy}
        onClick={hydrated ? uploadChosen : undefined}
      >
        dodaj zdjęcie
      </button>
      {uploads.length ? (
        <UploadList uploads={uploads} onRetry={busy ? undefined : (id) => void retryUpload(id)} />
      ) : null}
      {summary ? <Report report={summary.report} hint={summary.hint} /> : null}
      {!summary && feedback?.report ? <Report report={feedback.report} hint={feedback.hint ?? null} /> : null}
      {scriptError ? (
        <p role="alert" className="form-error">
          {scriptError}
        </p>
      ) : null}
    </fieldset>
  );
}
