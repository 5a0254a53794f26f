// What the album editor's script keeps while it works on the photos: the
// list as shown, the batch on its way, its report, and what makes the form
// busy: one state, changed by one reducer.
import type { ClientImage } from "~/features/galleries/editor.server";
import type { UploadItem } from "~/features/galleries/editor/upload-list";

export interface BatchSummary {
  report: string;
  hint: string | null;
}

export interface PhotosState {
  /** The photos as shown: the server's list, or ahead of it while photos arrive or move. */
  items: ClientImage[];
  /** The last batch's files, one progress bar each. */
  uploads: UploadItem[];
  summary: BatchSummary | null;
  /** What went wrong in a script request, shown under the photos. */
  scriptError: string | null;
  uploading: boolean;
  // A new order on its way to the server: saving or leaving now could lose it.
  savingOrder: boolean;
  // Set together with the request that ends a batch, and cleared when the
  // server's list arrives. The router reports its own loading state inside a
  // transition, one render later than our own state changes: without this the
  // buttons would be enabled for that one render, and a press in it lost.
  refreshing: boolean;
}

/** A change of some of the state, or a function of the state before it (a file's progress). */
export type PhotosChange = Partial<PhotosState> | ((state: PhotosState) => Partial<PhotosState>);

export const initialPhotos = (items: ClientImage[]): PhotosState => ({
  items,
  uploads: [],
  summary: null,
  scriptError: null,
  uploading: false,
  savingOrder: false,
  refreshing: false,
});

export const photosReducer = (state: PhotosState, change: PhotosChange): PhotosState => ({
  ...state,
  ...(typeof change === "function" ? change(state) : change),
});

/** One file's progress bar moved. */
export const progressOf =
  (id: string, patch: Partial<UploadItem>): PhotosChange =>
  ({ uploads }) => ({ uploads: uploads.map((u) => (u.id === id ? { ...u, ...patch } : u)) });
