// The album editor's script: sending chosen photos a few at a time, 'ponów'
// for one the network lost, and saving a new order after a drag. Without
// JavaScript none of this runs: the form's buttons post everything.
import { useNavigate, useNavigation, useRevalidator } from "@remix-run/react";
import { type MouseEvent, type RefObject, useCallback, useEffect, useReducer, useRef } from "react";
import { arrayMove } from "@dnd-kit/sortable";
import type { DragEndEvent } from "@dnd-kit/core";
import type { ClientImage, PhotosResponse } from "~/features/galleries/editor.server";
import { batchReport } from "~/features/galleries/constants";
import { initialPhotos, photosReducer, progressOf } from "~/features/galleries/editor/photos-state";
import type { SendOutcome } from "~/features/galleries/editor/send-photo";
import type { UploadItem } from "~/features/galleries/editor/upload-list";
import { CSRF_FIELD, CSRF_HEADER } from "~/lib/csrf";
import { GALLERY_PHOTOS_PATH } from "~/lib/paths";

// One file per request. On a phone the uplink is the slow part, so it is
// never left idle while the server works: the next file starts going up as
// soon as the one before has all been sent (not when its answer comes), and
// up to this many are on their way at once (one going up, the others being
// checked and scaled by the server, which renders them one at a time).
// Sending two bodies at once would only share the uplink between them.
const IN_FLIGHT = 3;

/** What the editor's page loaded: the server's list and the album's identity. */
export interface AlbumPhotosData {
  images: ClientImage[];
  draftId: string | null;
  pageUrl: string;
  mode: "add" | "edit";
  albumTitle: string | null;
}

/** Refused photos of a batch, for its report. */
const refusedOf = (outcomes: SendOutcome[], files: File[]) =>
  outcomes.flatMap((o, i) => (o.reason ? [{ name: files[i].name, reason: o.reason }] : []));

/** The keys of the photos a batch added, in the order the files were chosen. */
const addedKeys = (outcomes: SendOutcome[]) => outcomes.flatMap((o) => (o?.image ? [o.image.key] : []));

export function useAlbumPhotos(
  data: AlbumPhotosData,
  {
    csrf,
    formRef,
    fileRef,
  }: { csrf: string; formRef: RefObject<HTMLFormElement>; fileRef: RefObject<HTMLInputElement> },
) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const [state, dispatch] = useReducer(photosReducer, data.images, initialPhotos);
  useEffect(() => dispatch({ items: data.images }), [data.images]);
  useEffect(() => dispatch({ refreshing: false }), [data]);

  // The draft the script works on; ahead of the loader data after a first upload.
  const draftRef = useRef<string | null>(data.draftId);
  useEffect(() => {
    draftRef.current = data.draftId;
  }, [data.draftId]);

  // The last batch, for 'ponów' on a file the network lost.
  const batchRef = useRef<{ before: string[]; files: File[]; ids: string[]; outcomes: SendOutcome[] } | null>(null);

  const busy =
    state.uploading ||
    state.savingOrder ||
    state.refreshing ||
    navigation.state !== "idle" ||
    revalidator.state !== "idle";

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
    [csrf, data.mode, data.albumTitle, formRef],
  );

  /** Shows the server's list again; the address names the draft so a reload keeps it. */
  const refresh = useCallback(() => {
    dispatch({ refreshing: true });
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
      dispatch({ savingOrder: true });
      const res = await fetch(GALLERY_PHOTOS_PATH, {
        method: "POST",
        body,
        headers: { [CSRF_HEADER]: csrf, Accept: "application/json" },
      }).catch(() => null);
      const answer = (await res?.json().catch(() => null)) as PhotosResponse | null;
      if (!res?.ok || !answer || !("draftId" in answer) || !answer.draftId) {
        dispatch({
          savingOrder: false,
          scriptError:
            answer && "error" in answer
              ? answer.error
              : "Nie udało się zapisać nowej kolejności. Odśwież stronę i spróbuj ponownie.",
        });
        // The database away: the page could not be read either, so the order the server has is the one loaded.
        if (res?.status === 503) dispatch({ items: data.images });
        else refresh();
        return false;
      }
      dispatch({ savingOrder: false, scriptError: null });
      draftRef.current = answer.draftId;
      return true;
    },
    [commonFields, csrf, refresh, data.images],
  );

  // The shrinking and sending code is loaded with the first photo sent: the page opens without it.
  const loadSender = () => import("~/features/galleries/editor/send-photo").catch(() => null);
  const uploadOne = async (
    chosen: File,
    id: string,
    sending: { file?: Promise<File>; onLeft?: () => void } = {},
  ): Promise<SendOutcome> => {
    const update = (patch: Partial<UploadItem>) => dispatch(progressOf(id, patch));
    const sender = await loadSender();
    if (!sender) {
      const reason = "nie udało się wysłać pliku, sprawdź połączenie";
      update({ phase: "failed", message: `${chosen.name}: ${reason}`, lost: true });
      return { reason, lost: true };
    }
    const onDraft = (draftId: string) => (draftRef.current = draftId);
    return sender.sendPhoto(chosen, id, csrf, commonFields, update, onDraft, sending);
  };

  async function uploadChosen(event: MouseEvent<HTMLButtonElement>) {
    event.preventDefault();
    const files = Array.from(fileRef.current?.files ?? []);
    // As on the original site, with no file chosen the button does nothing.
    if (files.length === 0 || state.uploading) return;
    if (fileRef.current) fileRef.current.value = "";
    const batch: UploadItem[] = files.map((f, i) => ({
      id: `${Date.now().toString(36)}-${i}`,
      name: f.name,
      loaded: 0,
      total: f.size,
      phase: "queued",
    }));
    dispatch({ uploads: batch, summary: null, scriptError: null, uploading: true });
    const base = state.items;
    const before = base.map((i) => i.key);
    const outcomes: SendOutcome[] = new Array(files.length);
    // Each file is shrunk while the one before it goes up.
    const shrunk = (await loadSender())?.shrinkInTurn(files);
    const finished: Promise<void>[] = [];
    let inFlight = 0;
    let roomMade = () => {};
    for (let i = 0; i < files.length; i++) {
      while (inFlight >= IN_FLIGHT) await new Promise<void>((resolve) => (roomMade = resolve));
      inFlight++;
      let leave = () => {};
      const left = new Promise<void>((resolve) => (leave = resolve));
      const done = uploadOne(files[i], batch[i].id, { file: shrunk?.(i), onLeft: leave })
        .then((outcome) => {
          outcomes[i] = outcome;
          // Shown in the order chosen, whatever order they finish in.
          if (outcome.image) dispatch({ items: [...base, ...outcomes.flatMap((o) => (o?.image ? [o.image] : []))] });
        })
        .finally(() => {
          inFlight--;
          leave();
          roomMade();
        });
      finished.push(done);
      // One at a time until a draft exists (the first accepted photo creates
      // it), then the next as soon as this one has left the uplink.
      await (draftRef.current ? left : done);
    }
    await Promise.all(finished);

    batchRef.current = { before, files, ids: batch.map((b) => b.id), outcomes };
    dispatch({
      summary: {
        report: batchReport(files.length, refusedOf(outcomes, files)),
        hint: outcomes.find((o) => o.hint)?.hint ?? null,
      },
    });
    // Parallel uploads join the album in the order the server finished them;
    // the album keeps the order they were chosen in.
    const chosen = addedKeys(outcomes);
    if (chosen.length > 1) await saveOrder([...before, ...chosen]);
    dispatch({ uploading: false });
    // Every file lost on the way (the database away, say): the server has
    // nothing new, and the page stays as it is, with everything typed.
    if (!outcomes.every((o) => o.lost)) refresh();
  }

  /** 'ponów': one file of the last batch, sent again; the album keeps the order the files were chosen in. */
  async function retryUpload(id: string) {
    const last = batchRef.current;
    const i = last?.ids.indexOf(id) ?? -1;
    if (!last || i < 0 || state.uploading) return;
    dispatch({ uploading: true, scriptError: null });
    last.outcomes[i] = await uploadOne(last.files[i], id);
    const image = last.outcomes[i].image;
    if (image) {
      const chosen = addedKeys(last.outcomes);
      const rest = state.items.map((item) => item.key).filter((key) => !chosen.includes(key) && key !== image.key);
      const order = [
        ...rest.filter((key) => last.before.includes(key)),
        ...chosen,
        ...rest.filter((key) => !last.before.includes(key)),
      ];
      await saveOrder(order);
      dispatch({
        summary: { report: batchReport(last.files.length, refusedOf(last.outcomes, last.files)), hint: null },
      });
    }
    dispatch({ uploading: false });
    if (!last.outcomes[i].lost) refresh();
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const { items } = state;
    const from = items.findIndex((i) => i.key === active.id);
    const to = items.findIndex((i) => i.key === over.id);
    if (from < 0 || to < 0) return;
    const moved = arrayMove(items, from, to);
    dispatch({ items: moved });
    void saveOrder(moved.map((i) => i.key)).then((ok) => {
      if (ok && draftRef.current !== data.draftId) refresh();
    });
  }

  return { ...state, busy, uploadChosen, retryUpload, onDragEnd };
}

export type AlbumPhotos = ReturnType<typeof useAlbumPhotos>;
