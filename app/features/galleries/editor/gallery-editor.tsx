import { Form, useActionData, useLoaderData, useNavigate, useNavigation, useRevalidator } from "@remix-run/react";
import { type MouseEvent, useCallback, useEffect, useRef, useState } from "react";
import { arrayMove } from "@dnd-kit/sortable";
import type { DragEndEvent } from "@dnd-kit/core";
import type { ClientImage, PhotosResponse, editorAction, editorLoader } from "~/features/galleries/editor.server";
import { CSRF_FIELD, CSRF_HEADER } from "~/lib/csrf";
import { batchReport } from "~/features/galleries/constants";
import { Field, FlashMessage, FormError, TextAreaField } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { CsrfInput, PastorBar, useCsrfToken } from "~/components/pastor";
import { ImageList } from "~/features/galleries/editor/image-list";
import { Report, type UploadItem, UploadList } from "~/features/galleries/editor/upload-list";
import { useHydrated } from "~/features/galleries/editor/use-hydrated";
import { postWithProgress, retryWaits } from "~/components/upload-progress";
import { shrinkPhoto } from "~/lib/shrink-photo";
import { ConflictNote } from "~/components/conflict-note";
import { GALLERY_PHOTOS_PATH, editGalleryPath } from "~/lib/paths";
import { KEPT_PARAM } from "~/features/kept-forms/messages";
import { PublicationBadge, PublishAtField, SaveDraftButton } from "~/features/publishing/publish-controls";

// One file per request; a few at once keep the network and the server busy.
const PARALLEL_UPLOADS = 2;

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
  // The last batch, for 'ponów' on a file the network lost.
  const batchRef = useRef<{
    before: string[];
    files: File[];
    ids: string[];
    outcomes: Awaited<ReturnType<typeof uploadOne>>[];
  } | null>(null);
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
      for (const name of ["title", "description", "date", "version", "publishAt"]) {
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
      const res = await fetch(GALLERY_PHOTOS_PATH, {
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

  async function uploadOne(
    chosen: File,
    id: string,
  ): Promise<{ image?: ClientImage; reason?: string; hint?: string | null; lost?: boolean }> {
    const update = (patch: Partial<UploadItem>) =>
      setUploads((list) => list.map((u) => (u.id === id ? { ...u, ...patch } : u)));
    const fail = (reason: string, lost = false) => {
      update({ phase: "failed", message: `${chosen.name}: ${reason}`, lost });
      return { reason, lost };
    };
    update({ phase: "preparing" });
    // What is sent: a phone's 5 MB photo leaves as about 1 MB (the bars count the bytes sent).
    const file = await shrinkPhoto(chosen);
    let res: Awaited<ReturnType<typeof postWithProgress>> = null;
    // A weak signal: the same file again, after growing waits; the upload id
    // lets the server see a retry whose first try did arrive.
    for (const wait of [0, ...retryWaits()]) {
      if (wait) {
        update({ phase: "waiting", loaded: 0, total: file.size });
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
      const body = new FormData();
      commonFields(body);
      body.append("intent", "upload");
      body.append("uploadId", id);
      body.append("zdjecia", file, chosen.name);
      res = await postWithProgress(GALLERY_PHOTOS_PATH, body, {
        headers: { [CSRF_HEADER]: csrf },
        onProgress: (share) =>
          update({ phase: "uploading", loaded: Math.round((share ?? 0) * file.size), total: file.size }),
        // Sent; the server now checks and scales the photo.
        onSent: () => update({ phase: "processing", loaded: file.size, total: file.size }),
      });
      if (res && ![502, 503, 504].includes(res.status)) break;
    }
    if (!res) return fail("nie udało się wysłać pliku, sprawdź połączenie", true);
    if ([502, 503, 504].includes(res.status)) return fail(`nie udało się wysłać pliku (błąd ${res.status})`, true);
    // Null for a proxy's error page, say.
    const answer = res.json as PhotosResponse | null;
    if (!answer) return fail(`nie udało się wysłać pliku (błąd ${res.status})`);
    if ("error" in answer) return fail(answer.error.replace(/\.$/, ""));
    if (!("results" in answer) || answer.results.length === 0) return fail("nie udało się wysłać pliku");
    if (answer.draftId) draftRef.current = answer.draftId;
    const result = answer.results[0];
    if (!result.ok) {
      update({ phase: "failed", message: `${result.name}: ${result.reason}` });
      return { reason: result.reason, hint: answer.hint };
    }
    update({ phase: "done" });
    return { image: result.image };
  }

  async function uploadChosen(event: MouseEvent<HTMLButtonElement>) {
    event.preventDefault();
    const files = Array.from(fileRef.current?.files ?? []);
    // As on the original site, with no file chosen the button does nothing.
    if (files.length === 0 || uploading) return;
    if (fileRef.current) fileRef.current.value = "";
    const batch: UploadItem[] = files.map((f, i) => ({
      id: `${Date.now().toString(36)}-${i}`,
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

    batchRef.current = { before, files, ids: batch.map((b) => b.id), outcomes };
    const refused = outcomes.flatMap((o, i) => (o.reason ? [{ name: files[i].name, reason: o.reason }] : []));
    setSummary({ report: batchReport(files.length, refused), hint: outcomes.find((o) => o.hint)?.hint ?? null });
    // Parallel uploads join the album in the order the server finished them;
    // the album keeps the order they were chosen in.
    const chosen = outcomes.flatMap((o) => (o.image ? [o.image.key] : []));
    if (chosen.length > 1) await saveOrder([...before, ...chosen]);
    setUploading(false);
    refresh();
  }

  /** 'ponów': one file of the last batch, sent again; the album keeps the order the files were chosen in. */
  async function retryUpload(id: string) {
    const last = batchRef.current;
    const i = last?.ids.indexOf(id) ?? -1;
    if (!last || i < 0 || uploading) return;
    setUploading(true);
    setScriptError(null);
    last.outcomes[i] = await uploadOne(last.files[i], id);
    const image = last.outcomes[i].image;
    if (image) {
      const chosen = last.outcomes.flatMap((o) => (o.image ? [o.image.key] : []));
      const rest = items.map((item) => item.key).filter((key) => !chosen.includes(key) && key !== image.key);
      const order = [
        ...rest.filter((key) => last.before.includes(key)),
        ...chosen,
        ...rest.filter((key) => !last.before.includes(key)),
      ];
      await saveOrder(order);
      const refused = last.outcomes.flatMap((o, n) =>
        o.reason ? [{ name: last.files[n].name, reason: o.reason }] : [],
      );
      setSummary({ report: batchReport(last.files.length, refused), hint: null });
    }
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
        {data.keptKey ? <input type="hidden" name={KEPT_PARAM} value={data.keptKey} /> : null}
        {data.mode === "edit" ? (
          <>
            <input type="hidden" name="version" value={feedback?.conflict?.version ?? data.version ?? ""} />
            <input type="hidden" name="albumId" value={data.albumId ?? ""} />
          </>
        ) : null}
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

        <ImageList items={items} sortable={hydrated} busy={busy} onDragEnd={onDragEnd} />

        <PublishAtField id="publish-at" defaultValue={values.publishAt} error={fieldErrors?.publishAt} />
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
