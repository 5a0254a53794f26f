// The album's own fields (title, description, date), with the form's message
// and, when the album changed since the edit began, what the other version holds.
import type { DraftFeedback } from "~/services/schema";
import type { GalleryValues } from "~/features/galleries/album-values";
import { Field, FormError, TextAreaField } from "~/components/forms";
import { ConflictNote } from "~/components/conflict-note";
import { editGalleryPath } from "~/lib/paths";

export function AlbumFields({
  values,
  feedback,
}: {
  values: Pick<GalleryValues, "title" | "description" | "date">;
  feedback: DraftFeedback | null | undefined;
}) {
  const fieldErrors = feedback?.fieldErrors;
  return (
    <>
      <FormError message={feedback?.error} />
      {feedback?.conflict ? (
        <ConflictNote
          changed={feedback.conflict.changed}
          sameNote="Obecna wersja ma te same dane i zdjęcia co Twoja."
          yoursNote="Twoje zmiany są poniżej. Naciśnij „zapisz moją wersję”, aby zapisać je zamiast obecnej wersji, albo"
          currentHref={editGalleryPath(feedback.conflict.current.title)}
          current={[
            { label: "Tytuł", value: feedback.conflict.current.title },
            { label: "Opis", value: feedback.conflict.current.description, long: true },
            { label: "Data", value: feedback.conflict.current.date },
          ]}
        />
      ) : null}
      <Field
        id="title"
        name="title"
        label="TYTUŁ"
        defaultValue={values.title}
        required
        autoComplete="off"
        error={fieldErrors?.title}
      />
      <TextAreaField
        id="description"
        name="description"
        label="OPIS"
        defaultValue={values.description}
        rows={4}
        error={fieldErrors?.description}
      />
      <Field
        id="date"
        name="date"
        type="date"
        label="DATA"
        defaultValue={values.date}
        required
        error={fieldErrors?.date}
      />
    </>
  );
}
