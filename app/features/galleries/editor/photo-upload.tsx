// 'Zdjęcia': the file input and 'dodaj zdjęcie', and the report of the last
// batch posted without JavaScript. The album script (album-script.ts) adds a
// progress bar per file and its own report here.
import type { DraftFeedback } from "~/services/schema";

export function Report({ report, hint }: { report: string; hint: string | null }) {
  return (
    <div role="status" className="upload-report">
      <p>{report}</p>
      {hint ? <p className="field-note">{hint}</p> : null}
    </div>
  );
}

export function PhotoUpload({
  maxFiles,
  feedback,
}: {
  maxFiles: number;
  /** The form's feedback, with the report of the last batch posted without JavaScript. */
  feedback: DraftFeedback | null | undefined;
}) {
  return (
    <fieldset className="photo-upload">
      <legend>Zdjęcia</legend>
      <p className="field">
        <label htmlFor="photos">Wybierz zdjęcia (JPEG, PNG lub WebP)</label>
        <input id="photos" type="file" name="zdjecia" accept="image/*" multiple />
        {/* The script sends one file per request and removes this note. */}
        <span className="field-note">Najwyżej {maxFiles} zdjęć naraz; więcej dodaj w kolejnych częściach.</span>
      </p>
      <button type="submit" name="intent" value="upload" formNoValidate className="secondary">
        dodaj zdjęcie
      </button>
      {feedback?.report ? <Report report={feedback.report} hint={feedback.hint ?? null} /> : null}
    </fieldset>
  );
}
