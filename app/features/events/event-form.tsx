// The event form of the pastor area (add and edit): a multipart post to the
// page's own action with native date and time inputs and an optional photo,
// so it works without JavaScript. With it, the upload script sends the same
// form to the page's upload route (the photo shrunk first, a progress bar
// meanwhile), and a refusal is shown in place with the photo still chosen.
// Every field shows what was typed after a refusal; sent as a document, a
// chosen photo must be chosen again, as a browser never refills a file input.
import { useActionData } from "@remix-run/react";
import { Field, TextAreaField } from "~/components/forms";
import { UploadProgress, useUploadForm } from "~/components/upload-progress";
import { VersionedForm } from "~/components/versioned-form";
import { PublishAtField, PublishButtons } from "~/features/publishing/publish-controls";
import type { EventReply } from "~/features/events/event-form.server";
import {
  DAY_LABELS,
  ENDS_LABELS,
  EVENT_COUNT_MAX,
  EVENT_DESCRIPTION_MAX,
  EVENT_INTERVAL_MAX,
  EVENT_LABELS,
  type EventErrors,
  type EventFormValues,
  MONTH_WEEK_OPTIONS,
  REPEAT_LABELS,
} from "~/features/events/event-fields";
import { DAY_CODES } from "~/features/events/recurrence";
import { Photo } from "~/components/picture";
import type { ImageView } from "~/lib/image-variants";
import { PHOTO_NOTES } from "~/lib/photo-notes";

const PHOTO_ACCEPT = "image/jpeg,image/png,image/webp";
// The preview of the stored photo, as the article form shows it.
const PREVIEW_HEIGHT = 150;

export interface EventFormProps {
  action: string;
  /** Where the upload script sends the form (the contract: app/components/upload-progress.tsx). */
  uploadUrl: string;
  submitLabel: string;
  /** What the page loaded: the stored event, a kept form or an empty one. */
  values: EventFormValues;
  /** The version the edit begins from (0 for a new event). */
  version: number;
  kept?: { key: string; message: string; photo?: boolean } | null;
  /** The edit page: the stored photo (null: none). Undefined on the add page. */
  currentPhoto?: ImageView | null;
  /** The edit page: the stored event's address, offered by the note of a save refused over a newer version. */
  currentHref?: string;
}

function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <span id={id} className="field-error">
      {error}
    </span>
  ) : null;
}

/** The stored event in words, for the conflict note. */
/** One radio per label, in the labels' order; the first is chosen when the value names none of them. */
function RadioChoices({ name, labels, value }: { name: string; labels: Record<string, string>; value: string }) {
  const choices = Object.keys(labels);
  const chosen = choices.includes(value) ? value : choices[0];
  return choices.map((choice) => (
    <p className="field checkbox-field" key={choice}>
      <input
        type="radio"
        id={`event-${name}-${choice}`}
        name={name}
        value={choice}
        defaultChecked={choice === chosen}
      />
      <label htmlFor={`event-${name}-${choice}`}>{labels[choice]}</label>
    </p>
  ));
}

function shown(v: EventFormValues) {
  const start = v.allDay ? `${v.startDate} (cały dzień)` : `${v.startDate} ${v.startTime}`;
  const end = v.allDay ? v.endDate : [v.endDate, v.endTime].filter(Boolean).join(" ");
  return [
    { label: EVENT_LABELS.title, value: v.title },
    { label: "Początek", value: start },
    { label: "Koniec", value: end || "–" },
    { label: EVENT_LABELS.place, value: v.place || "–" },
    { label: EVENT_LABELS.description, value: v.description || "–", long: true },
    { label: EVENT_LABELS.repeat, value: REPEAT_LABELS[v.repeat as "none"] ?? v.repeat },
  ];
}

export function EventForm({
  action,
  uploadUrl,
  submitLabel,
  values: loaded,
  version,
  kept,
  currentPhoto,
  currentHref,
}: EventFormProps) {
  const upload = useUploadForm<EventReply>(uploadUrl);
  const posted = useActionData<EventReply>();
  const reply = upload.data ?? posted;
  const refused = reply?.refused;
  const values = refused?.values ?? loaded;
  const errors: EventErrors = refused?.errors ?? {};
  const conflict = refused?.conflict && currentHref ? { ...refused.conflict, currentHref } : null;
  // Sent by the script, the photo is still chosen: only a document post loses it.
  const photoLost = Boolean(posted?.refused?.photoLost) && !upload.data;
  const invalid = (f: keyof EventErrors) => (errors[f] ? true : undefined);
  return (
    <VersionedForm
      action={action}
      submitLabel={submitLabel}
      version={refused?.version ?? version}
      values={loaded}
      error={upload.failure ?? reply?.error}
      kept={kept}
      conflict={conflict ? { ...conflict, current: shown(conflict.current) } : null}
      className="form event-form"
      encType="multipart/form-data"
      onSubmit={upload.onSubmit}
    >
      <Field
        label={EVENT_LABELS.title}
        id="event-title"
        name="title"
        defaultValue={values.title}
        error={errors.title}
      />
      <fieldset>
        <legend>Początek (czas polski)</legend>
        <Field
          label={EVENT_LABELS.startDate}
          id="event-start-date"
          name="startDate"
          type="date"
          defaultValue={values.startDate}
          error={errors.startDate}
        />
        <Field
          label={EVENT_LABELS.startTime}
          id="event-start-time"
          name="startTime"
          type="time"
          defaultValue={values.startTime}
          error={errors.startTime}
        />
        <p className="field checkbox-field">
          <input type="checkbox" id="event-all-day" name="allDay" value="1" defaultChecked={values.allDay} />
          <label htmlFor="event-all-day">{EVENT_LABELS.allDay}</label>
        </p>
      </fieldset>
      <fieldset aria-describedby={errors.end ? "event-end-error" : "event-end-note"}>
        <legend>Koniec (opcjonalnie)</legend>
        <span id="event-end-note" className="field-note">
          Bez dnia: tego samego dnia. Wydarzenie całodniowe: ostatni dzień.
        </span>
        <Field
          label={EVENT_LABELS.endDate}
          id="event-end-date"
          name="endDate"
          type="date"
          defaultValue={values.endDate}
          aria-invalid={invalid("end")}
        />
        <Field
          label={EVENT_LABELS.endTime}
          id="event-end-time"
          name="endTime"
          type="time"
          defaultValue={values.endTime}
          aria-invalid={invalid("end")}
        />
        <FieldError id="event-end-error" error={errors.end} />
      </fieldset>
      <Field
        label={EVENT_LABELS.place}
        id="event-place"
        name="place"
        defaultValue={values.place}
        error={errors.place}
      />
      <TextAreaField
        label={
          <>
            {EVENT_LABELS.description} <span className="field-note">(adresy stron, np. https://…, będą klikalne)</span>
          </>
        }
        id="event-description"
        name="description"
        rows={6}
        maxLength={EVENT_DESCRIPTION_MAX * 2}
        defaultValue={values.description}
        error={errors.description}
      />
      <PhotoFields
        current={currentPhoto}
        removeImage={values.removeImage}
        error={errors.image}
        note={kept?.photo ? PHOTO_NOTES.kept : photoLost ? PHOTO_NOTES.chooseAgain : null}
      />
      <fieldset className="event-repeat">
        <legend>{EVENT_LABELS.repeat}</legend>
        <RadioChoices name="repeat" labels={REPEAT_LABELS} value={values.repeat} />
        <FieldError id="event-repeat-error" error={errors.repeat} />
        <Field
          label={
            <>
              co ile tygodni (lub miesięcy){" "}
              <span className="field-note">1 – co tydzień (co miesiąc), 2 – co drugi…</span>
            </>
          }
          id="event-interval"
          name="interval"
          type="number"
          min={1}
          max={EVENT_INTERVAL_MAX}
          inputMode="numeric"
          defaultValue={values.interval}
          error={errors.interval}
        />
        <fieldset>
          <legend>{EVENT_LABELS.days} (co tydzień)</legend>
          {DAY_CODES.map((d) => (
            <p className="field checkbox-field" key={d}>
              <input
                type="checkbox"
                id={`event-day-${d}`}
                name={`day-${d}`}
                value="1"
                defaultChecked={values.days.includes(d)}
              />
              <label htmlFor={`event-day-${d}`}>{DAY_LABELS[d]}</label>
            </p>
          ))}
        </fieldset>
        <fieldset aria-describedby={errors.monthWeek ? "event-month-error" : undefined}>
          <legend>Dzień miesiąca (co miesiąc)</legend>
          <p className="field">
            <label htmlFor="event-month-week">{EVENT_LABELS.monthWeek}</label>
            <select id="event-month-week" name="monthWeek" defaultValue={values.monthWeek}>
              {MONTH_WEEK_OPTIONS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </p>
          <p className="field">
            <label htmlFor="event-month-day">{EVENT_LABELS.monthDay}</label>
            <select id="event-month-day" name="monthDay" defaultValue={values.monthDay}>
              {DAY_CODES.map((d) => (
                <option key={d} value={d}>
                  {DAY_LABELS[d]}
                </option>
              ))}
            </select>
          </p>
          <FieldError id="event-month-error" error={errors.monthWeek} />
        </fieldset>
        <fieldset>
          <legend>{EVENT_LABELS.ends}</legend>
          <RadioChoices name="ends" labels={ENDS_LABELS} value={values.ends} />
          <Field
            label={EVENT_LABELS.untilDate}
            id="event-until"
            name="untilDate"
            type="date"
            defaultValue={values.untilDate}
            error={errors.untilDate}
          />
          <Field
            label={EVENT_LABELS.count}
            id="event-count"
            name="count"
            type="number"
            min={1}
            max={EVENT_COUNT_MAX}
            inputMode="numeric"
            defaultValue={values.count}
            error={errors.count}
          />
        </fieldset>
      </fieldset>
      <PublishAtField id="event-publish-at" defaultValue={values.publishAt} error={errors.publishAt} />
      <UploadProgress upload={upload} />
      <PublishButtons label={conflict ? "zapisz moją wersję" : submitLabel} busy={upload.busy} />
    </VersionedForm>
  );
}

/**
 * The optional photo: one file input on the add page ('Zdjęcie') and on the
 * edit page of an event without one; beside a stored photo, its preview, a
 * file input replacing it ('Nowe zdjęcie') and 'usuń zdjęcie'.
 */
function PhotoFields({
  current,
  removeImage,
  error,
  note,
}: {
  current: ImageView | null | undefined;
  removeImage: boolean;
  error?: string;
  note: string | null;
}) {
  const noteLine = note ? (
    <p className="field-note" id="event-image-note">
      {note}
    </p>
  ) : null;
  if (!current) {
    return (
      <>
        <Field
          label={
            <>
              {EVENT_LABELS.image} <span className="field-note">(opcjonalnie)</span>
            </>
          }
          id="event-image"
          name="image"
          type="file"
          accept={PHOTO_ACCEPT}
          error={error}
        />
        {noteLine}
      </>
    );
  }
  return (
    <fieldset className="event-photo">
      <legend>{EVENT_LABELS.image}</legend>
      <Photo
        className="current-image"
        image={current}
        alt={EVENT_LABELS.currentImage}
        sizes={`${Math.ceil((PREVIEW_HEIGHT * current.width) / current.height)}px`}
      />
      <Field
        label={EVENT_LABELS.newImage}
        id="event-image"
        name="image"
        type="file"
        accept={PHOTO_ACCEPT}
        error={error}
      />
      {noteLine}
      <p className="field checkbox-field">
        <input type="checkbox" id="event-remove-image" name="removeImage" value="1" defaultChecked={removeImage} />
        <label htmlFor="event-remove-image">{EVENT_LABELS.removeImage}</label>
      </p>
    </fieldset>
  );
}
