import {
  type Announcements,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  type KeyboardCoordinateGetter,
  PointerSensor,
  type UniqueIdentifier,
  closestCenter,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { SortableContext, arrayMove, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { Form, useActionData, useLoaderData, useNavigate, useNavigation, useRevalidator } from "@remix-run/react";
import {
  type CSSProperties,
  type MouseEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import type { ClientImage, PhotosResponse, editorAction, editorLoader } from "~/features/galleries/editor.server";
import { CSRF_FIELD, CSRF_HEADER } from "~/lib/csrf";
import { ALT_MAX, batchReport } from "~/features/galleries/constants";
import { Field, FlashMessage, FormError, TextAreaField } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { CsrfInput, PastorBar, useCsrfToken } from "~/components/pastor";

/** Where the editor's script sends photos one by one, and new orders after a drag. */
export const PHOTOS_ENDPOINT = "/strefapastora/galeria/dodaj/zdjecia";

// SPEC §9: one arrow key press moves a photo 25 px.
export const KEYBOARD_STEP = 25;
// One file per request; a few at once keep the network and the server busy.
const PARALLEL_UPLOADS = 2;

const keyboardStep: KeyboardCoordinateGetter = (event, { currentCoordinates: c }) => {
  switch (event.code) {
    case "ArrowDown":
      return { ...c, y: c.y + KEYBOARD_STEP };
    case "ArrowUp":
      return { ...c, y: c.y - KEYBOARD_STEP };
    case "ArrowRight":
      return { ...c, x: c.x + KEYBOARD_STEP };
    case "ArrowLeft":
      return { ...c, x: c.x - KEYBOARD_STEP };
    default:
      return undefined;
  }
};

interface UploadItem {
  id: string;
  name: string;
  loaded: number;
  total: number;
  phase: "queued" | "uploading" | "processing" | "done" | "failed";
  message?: string;
}

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * The album form of /strefapastora/galeria/dodaj and /edytuj/{slug}. It is
 * one plain form: without JavaScript every button posts everything (typed
 * values, chosen files) and the page comes back from the server's draft.
 * With JavaScript, 'dodaj zdjęcie' sends the files one per request with a
 * progress bar each, and photos can also be dragged (mouse, touch, keyboard).
 */
export function GalleryEditor() {
  const data = useLoaderData<typeof editorLoader>();
  const actionData = useActionData<typeof editorAction>();
  const hydrated = useHydrated();
  const csrf = useCsrfToken();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  const values = actionData?.values ?? data.values;
  const feedback = actionData?.feedback ?? data.feedback;
  const fieldErrors = feedback?.fieldErrors;

  const [items, setItems] = useState<ClientImage[]>(data.images);
  useEffect(() => setItems(data.images), [data.images]);

  // The draft the script works on; ahead of the loader data after a first upload.
  const draftRef = useRef<string | null>(data.draftId);
  useEffect(() => {
    draftRef.current = data.draftId;
  }, [data.draftId]);

  const [uploads, setUploads] = useState<UploadItem[]>([]);
  const [summary, setSummary] = useState<{ report: string; hint: string | null } | null>(null);
  const [scriptError, setScriptError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  // A new order on its way to the server: saving or leaving now could lose it.
  const [savingOrder, setSavingOrder] = useState(false);
  // Set together with the request that ends a batch, and cleared when the
  // server's list arrives. The router reports its own loading state inside a
  // transition, one render later than our own state changes: without this the
  // buttons would be enabled for that one render, and a press in it lost.
  const [refreshing, setRefreshing] = useState(false);
  useEffect(() => setRefreshing(false), [data]);
  const busy = uploading || savingOrder || refreshing || navigation.state !== "idle" || revalidator.state !== "idle";

  const formAction = data.draftId ? `${data.pageUrl}?szkic=${encodeURIComponent(data.draftId)}` : data.pageUrl;

  /** The typed values and the album's identity, sent with every script request. */
  const commonFields = useCallback(
    (body: FormData | URLSearchParams) => {
      body.append(CSRF_FIELD, csrf);
      if (draftRef.current) body.append("szkic", draftRef.current);
      if (data.mode === "edit" && data.albumTitle !== null) body.append("galeria", data.albumTitle);
      const form = formRef.current;
      for (const name of ["title", "description", "date"]) {
        const field = form?.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | null;
        if (field) body.append(name, field.value);
      }
      // Photo descriptions typed so far are kept in the draft too.
      for (const field of Array.from(form?.querySelectorAll<HTMLInputElement>('input[name^="alt:"]') ?? [])) {
        body.append(field.name, field.value);
      }
    },
    [csrf, data.mode, data.albumTitle],
  );

  /** Shows the server's list again; the address names the draft so a reload keeps it. */
  const refresh = useCallback(() => {
    setRefreshing(true);
    const id = draftRef.current;
    if (id && id !== data.draftId) {
      navigate(`${data.pageUrl}?szkic=${encodeURIComponent(id)}`, { replace: true, preventScrollReset: true });
    } else {
      revalidator.revalidate();
    }
  }, [data.draftId, data.pageUrl, navigate, revalidator]);

  const saveOrder = useCallback(
    async (keys: string[]) => {
      const body = new URLSearchParams();
      commonFields(body);
      body.append("intent", "reorder");
      for (const key of keys) body.append("order", key);
      setSavingOrder(true);
      const res = await fetch(PHOTOS_ENDPOINT, {
        method: "POST",
        body,
        headers: { [CSRF_HEADER]: csrf, Accept: "application/json" },
      }).catch(() => null);
      const answer = (await res?.json().catch(() => null)) as PhotosResponse | null;
      setSavingOrder(false);
      if (!res?.ok || !answer || !("draftId" in answer) || !answer.draftId) {
        setScriptError(
          answer && "error" in answer
            ? answer.error
            : "Nie udało się zapisać nowej kolejności. Odśwież stronę i spróbuj ponownie.",
        );
        refresh();
        return false;
      }
      setScriptError(null);
      draftRef.current = answer.draftId;
      return true;
    },
    [commonFields, csrf, refresh],
  );

  function uploadOne(file: File, id: string): Promise<{ image?: ClientImage; reason?: string; hint?: string | null }> {
    const update = (patch: Partial<UploadItem>) =>
      setUploads((list) => list.map((u) => (u.id === id ? { ...u, ...patch } : u)));
    return new Promise((resolve) => {
      const body = new FormData();
      commonFields(body);
      body.append("intent", "upload");
      body.append("zdjecia", file, file.name);
      const xhr = new XMLHttpRequest();
      xhr.open("POST", PHOTOS_ENDPOINT);
      xhr.setRequestHeader(CSRF_HEADER, csrf);
      xhr.setRequestHeader("Accept", "application/json");
      xhr.upload.onprogress = (e) =>
        update({ phase: "uploading", loaded: e.loaded, total: e.lengthComputable ? e.total : file.size });
      // Sent; the server now checks and scales the photo.
      xhr.upload.onload = () => update({ phase: "processing", loaded: file.size, total: file.size });
      const fail = (reason: string) => {
        update({ phase: "failed", message: `${file.name}: ${reason}` });
        resolve({ reason });
      };
      xhr.onerror = () => fail("nie udało się wysłać pliku, sprawdź połączenie");
      xhr.onload = () => {
        let answer: PhotosResponse | null = null;
        try {
          answer = JSON.parse(xhr.responseText) as PhotosResponse;
        } catch {
          // A proxy's error page, say.
        }
        if (!answer) return fail(`nie udało się wysłać pliku (błąd ${xhr.status})`);
        if ("error" in answer) return fail(answer.error.replace(/\.$/, ""));
        if (!("results" in answer) || answer.results.length === 0) return fail("nie udało się wysłać pliku");
        if (answer.draftId) draftRef.current = answer.draftId;
        const result = answer.results[0];
        if (!result.ok) {
          update({ phase: "failed", message: `${result.name}: ${result.reason}` });
          return resolve({ reason: result.reason, hint: answer.hint });
        }
        update({ phase: "done" });
        resolve({ image: result.image });
      };
      xhr.send(body);
    });
  }

  async function uploadChosen(event: MouseEvent<HTMLButtonElement>) {
    event.preventDefault();
    const files = Array.from(fileRef.current?.files ?? []);
    // SPEC §5: with no file chosen the button does nothing.
    if (files.length === 0 || uploading) return;
    if (fileRef.current) fileRef.current.value = "";
    const batch: UploadItem[] = files.map((f, i) => ({
      id: `${Date.now()}-${i}`,
      name: f.name,
      loaded: 0,
      total: f.size,
      phase: "queued",
    }));
    setUploads(batch);
    setSummary(null);
    setScriptError(null);
    setUploading(true);
    const base = items;
    const before = base.map((i) => i.key);
    const outcomes: Awaited<ReturnType<typeof uploadOne>>[] = new Array(files.length);
    let next = 0;
    const uploadNext = async () => {
      const i = next++;
      outcomes[i] = await uploadOne(files[i], batch[i].id);
      const image = outcomes[i].image;
      if (image) {
        // Shown in the order chosen, whatever order they finish in.
        setItems([...base, ...outcomes.flatMap((o) => (o?.image ? [o.image] : []))]);
      }
    };
    // One at a time until a draft exists (the first accepted photo creates it), then a few at once.
    while (next < files.length && !draftRef.current) await uploadNext();
    await Promise.all(
      Array.from({ length: PARALLEL_UPLOADS }, async () => {
        while (next < files.length) await uploadNext();
      }),
    );

    const refused = outcomes.flatMap((o, i) => (o.reason ? [{ name: files[i].name, reason: o.reason }] : []));
    setSummary({ report: batchReport(files.length, refused), hint: outcomes.find((o) => o.hint)?.hint ?? null });
    // Parallel uploads join the album in the order the server finished them;
    // the album keeps the order they were chosen in.
    const chosen = outcomes.flatMap((o) => (o.image ? [o.image.key] : []));
    if (chosen.length > 1) await saveOrder([...before, ...chosen]);
    setUploading(false);
    refresh();
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const from = items.findIndex((i) => i.key === active.id);
    const to = items.findIndex((i) => i.key === over.id);
    if (from < 0 || to < 0) return;
    const moved = arrayMove(items, from, to);
    setItems(moved);
    void saveOrder(moved.map((i) => i.key)).then((ok) => {
      if (ok && draftRef.current !== data.draftId) refresh();
    });
  }

  const heading = data.mode === "add" ? "Dodawanie galerii zdjęć" : "Edytowanie galerii zdjęć";

  return (
    <section className="page pastor gallery-editor">
      <PastorBar email={data.email} />
      <BackLink to={data.backTo} />
      <h1>{heading}</h1>
      <FlashMessage message={data.flash} />
      <Form method="post" action={formAction} encType="multipart/form-data" className="form gallery-form" ref={formRef}>
        <CsrfInput />
        <FormError message={feedback?.error} />
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

        <fieldset className="photo-upload">
          <legend>Zdjęcia</legend>
          <p className="field">
            <label htmlFor="photos">Wybierz zdjęcia (JPEG, PNG lub WebP)</label>
            <input ref={fileRef} id="photos" type="file" name="zdjecia" accept="image/*" multiple />
            {hydrated ? null : (
              <span className="field-note">
                Najwyżej {data.maxFiles} zdjęć naraz; więcej dodaj w kolejnych częściach.
              </span>
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
          {uploads.length ? <UploadList uploads={uploads} /> : null}
          {summary ? <Report report={summary.report} hint={summary.hint} /> : null}
          {!summary && feedback?.report ? <Report report={feedback.report} hint={feedback.hint ?? null} /> : null}
          {scriptError ? (
            <p role="alert" className="form-error">
              {scriptError}
            </p>
          ) : null}
        </fieldset>

        <ImageList items={items} sortable={hydrated} busy={busy} onDragEnd={onDragEnd} />

        <button type="submit" name="intent" value="save" disabled={busy}>
          zapisz
        </button>
      </Form>
    </section>
  );
}

function Report({ report, hint }: { report: string; hint: string | null }) {
  return (
    <div role="status" className="upload-report">
      <p>{report}</p>
      {hint ? <p className="field-note">{hint}</p> : null}
    </div>
  );
}

function UploadList({ uploads }: { uploads: UploadItem[] }) {
  return (
    <ul className="upload-list" aria-label="Wysyłane zdjęcia">
      {uploads.map((u) => (
        <li key={u.id} className={`upload-item ${u.phase}`}>
          <span className="upload-name">{u.name}</span>
          <progress
            max={u.total || 1}
            value={u.phase === "queued" ? 0 : u.phase === "uploading" ? u.loaded : u.total || 1}
            aria-label={`Wysyłanie ${u.name}`}
          />
          <span className="upload-state">
            {u.phase === "queued"
              ? "czeka"
              : u.phase === "uploading"
                ? `wysyłanie ${u.total ? Math.round((u.loaded / u.total) * 100) : 0}%`
                : u.phase === "processing"
                  ? "przetwarzanie…"
                  : u.phase === "done"
                    ? "dodano"
                    : u.message}
          </span>
        </li>
      ))}
    </ul>
  );
}

function ImageList({
  items,
  sortable,
  busy,
  onDragEnd,
}: {
  items: ClientImage[];
  sortable: boolean;
  busy: boolean;
  onDragEnd: (event: DragEndEvent) => void;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: keyboardStep }),
  );
  const keys = useMemo(() => items.map((i) => i.key), [items]);
  const nameOf = (id: UniqueIdentifier) => items.find((i) => i.key === id)?.name ?? "";
  const placeOf = (id: UniqueIdentifier) => keys.indexOf(String(id)) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Podniesiono zdjęcie ${nameOf(active.id)}.`,
    onDragOver: ({ active, over }) =>
      over
        ? `Zdjęcie ${nameOf(active.id)} nad miejscem ${placeOf(over.id)}.`
        : `Zdjęcie ${nameOf(active.id)} poza listą.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `Upuszczono zdjęcie ${nameOf(active.id)} na miejscu ${placeOf(over.id)}.`
        : `Upuszczono zdjęcie ${nameOf(active.id)}.`,
    onDragCancel: ({ active }) => `Anulowano przenoszenie zdjęcia ${nameOf(active.id)}.`,
  };

  const heading = <h2 id="gallery-images-heading">Kolejność zdjęć ({items.length})</h2>;
  const altHelp = (
    <p className="field-note" id="alt-help">
      Opis zdjęcia odczyta osobom niewidomym czytnik ekranu. Gdy pole zostanie puste, zdjęcie opisze jego numer i tytuł
      galerii.
    </p>
  );
  if (items.length === 0) {
    return (
      <div className="editor-images-block">
        {heading}
        <p className="empty">Nie ma żadnych zdjęć do wyświetlenia.</p>
      </div>
    );
  }
  const rows = items.map((image, index) => (
    <SortableRow key={image.key} image={image} index={index} count={items.length} sortable={sortable} busy={busy} />
  ));
  const list = (
    <ol className="editor-images" aria-labelledby="gallery-images-heading">
      {rows}
    </ol>
  );
  return (
    <div className="editor-images-block">
      {heading}
      {altHelp}
      {sortable ? (
        <p className="field-note" id="drag-help">
          Przeciągnij zdjęcie za uchwyt ⠿ albo użyj przycisków. Z klawiatury: spacja na uchwycie, strzałki, spacja.
        </p>
      ) : null}
      {/* The same tree with and without the script, so hydrating never remounts a
          row and loses what was typed in it; only the drag handles appear. The
          context renders its screen-reader messages beside the list, not inside it. */}
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable:
              "Aby przenieść zdjęcie, naciśnij spację lub Enter. Strzałkami przesuń je w nowe miejsce, spacją lub Enterem upuść, klawiszem Escape anuluj.",
          },
        }}
      >
        <SortableContext items={keys} strategy={verticalListSortingStrategy}>
          {list}
        </SortableContext>
      </DndContext>
    </div>
  );
}

function SortableRow(props: { image: ClientImage; index: number; count: number; sortable: boolean; busy: boolean }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: props.image.key,
    disabled: props.busy || !props.sortable,
    attributes: { roleDescription: "zdjęcie do przeniesienia" },
  });
  return (
    <Row
      {...props}
      rowRef={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      dragging={isDragging}
      handle={
        props.sortable ? (
          <button
            type="button"
            className="drag-handle"
            ref={setActivatorNodeRef}
            {...attributes}
            {...listeners}
            aria-label={`Przenieś zdjęcie ${props.image.name}`}
          >
            <span aria-hidden="true">⠿</span>
          </button>
        ) : null
      }
    />
  );
}

function Row({
  image,
  index,
  count,
  busy,
  handle,
  rowRef,
  style,
  dragging = false,
}: {
  image: ClientImage;
  index: number;
  count: number;
  busy: boolean;
  handle?: ReactNode;
  rowRef?: (node: HTMLElement | null) => void;
  style?: CSSProperties;
  dragging?: boolean;
}) {
  const which = <span className="visually-hidden">: {image.name}</span>;
  return (
    <li ref={rowRef} style={style} className={`editor-image${dragging ? " dragging" : ""}`} data-key={image.key}>
      {handle}
      <img src={image.thumb} alt="" width={50} height={50} loading="lazy" decoding="async" />
      <span className="editor-image-name">
        {image.name}
        {index === 0 ? <span className="cover-badge"> (okładka)</span> : null}
      </span>
      <span className="editor-image-alt">
        <label htmlFor={`alt-${index}`}>opis zdjęcia dla niewidomych{which}</label>
        <input
          id={`alt-${index}`}
          name={`alt:${image.key}`}
          defaultValue={image.alt}
          maxLength={ALT_MAX}
          autoComplete="off"
          aria-describedby="alt-help"
        />
      </span>
      <span className="editor-image-actions">
        <button
          type="submit"
          name="intent"
          value={`up:${image.key}`}
          formNoValidate
          className="secondary"
          disabled={busy || index === 0}
        >
          w górę{which}
        </button>
        <button
          type="submit"
          name="intent"
          value={`down:${image.key}`}
          formNoValidate
          className="secondary"
          disabled={busy || index === count - 1}
        >
          w dół{which}
        </button>
        <button
          type="submit"
          name="intent"
          value={`cover:${image.key}`}
          formNoValidate
          className="secondary"
          disabled={busy || index === 0}
        >
          na okładkę{which}
        </button>
        <button
          type="submit"
          name="intent"
          value={`remove:${image.key}`}
          formNoValidate
          className="secondary"
          disabled={busy}
        >
          usuń{which}
        </button>
      </span>
    </li>
  );
}
