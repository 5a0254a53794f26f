import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { MoveButtons } from "~/components/move-buttons";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { SavingNote, optimisticList, usePendingPosts, useScriptForm } from "~/components/optimistic";
import { historyPhotoListForm } from "~/http/form-schemas.server";
import { requireUser } from "~/features/auth/auth.server";
import { dropKeptForm, requireUserOrKeep } from "~/features/kept-forms/kept-forms.server";
import { KEPT_PARAM } from "~/features/kept-forms/messages";
import {
  addHistoryPhotos,
  describeHistoryPhoto,
  keptHistoryPhotoForm,
  listHistoryPhotosForPastor,
  moveHistoryPhoto,
  removeHistoryPhoto,
  reorderHistoryPhotos,
} from "~/features/about-photos/about-photos.server";
import { SortableList } from "~/components/sortable-list";
import { STALE_ORDER_MESSAGE, parseOrder } from "~/lib/order";
import { batchReport } from "~/features/galleries/constants";
import { ConfirmButton, ConfirmPage } from "~/components/confirm";
import { ConflictNote } from "~/components/conflict-note";
import { FlashMessage, FormError, keepPageWhenNotSaved } from "~/components/forms";
import { BackLink } from "~/components/layout";
import { CsrfInput, PastorBar } from "~/components/pastor";
import { readFlash, redirectWithFlash } from "~/http/flash.server";
import { parseUpload } from "~/services/upload.server";
import { seo } from "~/features/seo/seo";
import { ABOUT_PATH, PANEL_PATH, PASTOR_HISTORY_PHOTOS_PATH } from "~/lib/paths";
import { readSmallForm } from "~/http/small-form.server";

// A post that met the outage leaves the page as it is, its message shown (see keepPageWhenNotSaved).
export const shouldRevalidate = keepPageWhenNotSaved;

export const meta: MetaFunction = (args) => seo(args, { page: "Zdjęcia z historii zboru" });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [{ flash, headers }, photos, kept] = await Promise.all([
    readFlash(request),
    listHistoryPhotosForPastor(),
    keptHistoryPhotoForm(new URL(request.url).searchParams.get(KEPT_PARAM), user),
  ]);
  // The description of a photo removed meanwhile has nothing to describe.
  const keptFor = kept && photos.some((p) => p.id === kept.id) ? kept : null;
  return data({ email: user.email, csrf: user.csrf, flash, photos, kept: keptFor }, { headers });
}

// Photos go as in the album editor without JavaScript: a few at a time.
const UPLOAD_LIMITS = { maxFiles: 20, maxFields: 10, maxFieldBytes: 64 * 1024 };

const deleteQuestion = (name: string) => `Usunąć zdjęcie „${name}”? Tego nie można cofnąć.`;

export async function action({ request }: ActionFunctionArgs) {
  // A description posted after the session ended is kept, and brought back after sign-in; an
  // upload's photos are not kept (they are chosen again), and its kept form is never shown.
  const user = await requireUserOrKeep(request, { form: "history-photo", path: PASTOR_HISTORY_PHOTOS_PATH });
  const done = (message: string) => redirectWithFlash(PASTOR_HISTORY_PHOTOS_PATH, message);
  if (/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "")) {
    const upload = await parseUpload(request, UPLOAD_LIMITS);
    if (!upload.ok) return data({ error: upload.message }, { status: upload.status });
    try {
      const files = upload.files.filter((f) => f.field === "photos" && f.size > 0);
      if (!files.length) return data({ error: "Wybierz co najmniej jedno zdjęcie." }, { status: 400 });
      const results = await addHistoryPhotos(files, { actor: user });
      const refused = results.flatMap((r) => (r.ok ? [] : [{ name: r.name, reason: r.reason }]));
      const report = batchReport(results.length, refused);
      return refused.length === results.length ? data({ error: report }, { status: 400 }) : done(report);
    } finally {
      await upload.cleanup();
    }
  }
  const form = await readSmallForm(request);
  const parsed = historyPhotoListForm.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data({ error: "Nieznane polecenie formularza." }, { status: 400 });
  const { intent, id, name, confirmed, order, version } = parsed.data;
  const gone = "Tego zdjęcia już nie ma.";
  if (intent === "up" || intent === "down") {
    const moved = await moveHistoryPhoto(id, intent, { actor: user });
    return done(moved === null ? gone : `Przesunięto zdjęcie „${moved}”.`);
  }
  if (intent === "reorder") {
    const ids = parseOrder(order);
    if (!ids) return data({ error: "Nieznane polecenie formularza." }, { status: 400 });
    const moved = await reorderHistoryPhotos(ids, id, { actor: user });
    return done(moved === null ? STALE_ORDER_MESSAGE : `Przesunięto zdjęcie „${moved}”.`);
  }
  if (intent === "describe") {
    const result = await describeHistoryPhoto(id, name, { baseVersion: version, actor: user });
    if (result.ok) {
      // A kept description, once saved, is used up.
      await dropKeptForm({ id: form.get(KEPT_PARAM), user });
      return done(`Zapisano opis zdjęcia „${result.name}”.`);
    }
    // After a conflict the form carries the stored version: the next press saves the pastor's text over it.
    if (result.conflict) {
      const { current, version: stored } = result.conflict;
      return data({ error: result.error, id, name, version: stored, current }, { status: 409 });
    }
    return data({ error: result.error, id, name, version }, { status: 400 });
  }
  const photo = (await listHistoryPhotosForPastor()).find((p) => p.id === id);
  if (!photo) return done(gone);
  if (confirmed !== "1") return { confirm: { id, question: deleteQuestion(photo.name) } };
  const removed = await removeHistoryPhoto(id, { actor: user });
  return done(removed === null ? gone : `Usunięto zdjęcie „${removed}”.`);
}

/** Every answer of the action that is not a redirect. */
interface Reply {
  error?: string;
  /** A refused description: the photo and what was typed. */
  id?: number;
  name?: string;
  /** The version the refused form carries on: the stored one after a conflict. */
  version?: number;
  /** Another tab described the photo first: the stored description. */
  current?: string;
  confirm?: { id: number; question: string };
}

export default function PastorHistoryPhotos() {
  const { email, flash, photos, kept } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as Reply | undefined;
  const sending = useNavigation().formEncType === "multipart/form-data";
  // What the posts being sent will change, shown before the server answers (app/components/optimistic.tsx).
  const posts = usePendingPosts(PASTOR_HISTORY_PHOTOS_PATH);
  const rows = optimisticList(
    photos.map((p) => ({ ...p, label: p.name })),
    posts,
    (p, post) =>
      post.get("intent") === "describe" ? { ...p, label: String(post.get("name") ?? "").trim() || p.label } : p,
  );
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <h1>Zdjęcia z historii zboru</h1>
      <FlashMessage message={flash} />
      <SavingNote busy={posts.length > 0} />
      <p className="pastor-actions">
        <BackLink to={PANEL_PATH} />
        <a href={`${ABOUT_PATH}#zdjecia`} target="_blank" rel="noreferrer">
          zobacz na stronie „O nas”
        </a>
      </p>
      {kept ? <p className="notice">{kept.message}</p> : null}
      <FormError message={reply?.error} />
      {reply?.confirm ? (
        <ConfirmPage
          action={PASTOR_HISTORY_PHOTOS_PATH}
          question={reply.confirm.question}
          cancelTo={PASTOR_HISTORY_PHOTOS_PATH}
          fields={{ id: String(reply.confirm.id) }}
        />
      ) : null}
      <Form method="post" action={PASTOR_HISTORY_PHOTOS_PATH} encType="multipart/form-data" className="form">
        <CsrfInput />
        <p className="field">
          <label htmlFor="history-photos">Wybierz zdjęcia (do 20 naraz)</label>
          <input id="history-photos" name="photos" type="file" accept="image/*" multiple required />
        </p>
        <button type="submit" className="button" disabled={sending}>
          {sending ? "wysyłanie…" : "dodaj zdjęcia"}
        </button>
      </Form>
      {photos.length === 0 ? (
        <p className="empty">Nie ma żadnych zdjęć do wyświetlenia.</p>
      ) : (
        <SortableList items={rows} action={PASTOR_HISTORY_PHOTOS_PATH} className="order-list history-photos-edit">
          {(p, i, count) => (
            <HistoryPhotoRow
              photo={p}
              label={p.label}
              index={i}
              count={count}
              refused={reply?.id === p.id ? reply : undefined}
              kept={kept?.id === p.id ? kept : undefined}
            />
          )}
        </SortableList>
      )}
    </section>
  );
}

type Photo = ReturnType<typeof useLoaderData<typeof loader>>["photos"][number];
/** A description kept after the session ended, brought back filled in after sign-in. */
type Kept = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["kept"]>;

/**
 * One photo: its description's form (with ↑/↓) and its remove button. With
 * JavaScript both are sent by the script and a refusal is shown beside them,
 * the description as typed; `label` is the description the page names it by,
 * a new one at once.
 */
function HistoryPhotoRow({
  photo: p,
  label,
  index,
  count,
  refused,
  kept,
}: {
  photo: Photo;
  label: string;
  index: number;
  count: number;
  /** The action's answer to this form without JavaScript. */
  refused?: Reply;
  kept?: Kept;
}) {
  const { fetcher, reply: scriptReply, onSubmit } = useScriptForm<Reply>(`history-photo-${p.id}`);
  const reply = scriptReply ?? refused;
  // The stored description, or a refused one without JavaScript (with it, the field keeps what was typed).
  // (After a conflict the page's data is the other tab's: the field takes the refused description anew.)
  const typed =
    (scriptReply?.current !== undefined ? scriptReply.name : undefined) ?? refused?.name ?? kept?.name ?? p.name;
  // The version the description began from; after a conflict the stored one, so that the next press saves over it.
  const version = reply?.version ?? kept?.version ?? p.version;
  return (
    <>
      {reply?.current !== undefined ? (
        <ConflictNote
          changed={["opis"]}
          sameNote="Obecna wersja nie różni się od Twojej."
          yoursNote="Twój opis jest w polu poniżej: „zapisz opis” zapisze go na obecną wersję."
          currentHref={PASTOR_HISTORY_PHOTOS_PATH}
          current={[{ label: "Opis zdjęcia", value: reply.current }]}
        />
      ) : null}
      <img src={p.thumb} alt="" width={80} height={Math.round((80 * p.height) / p.width) || 80} loading="lazy" />
      {/* A new key when the shown description changes, so the uncontrolled input takes it. */}
      <fetcher.Form
        onSubmit={onSubmit}
        key={typed}
        method="post"
        action={PASTOR_HISTORY_PHOTOS_PATH}
        className="history-photo-form"
        preventScrollReset
      >
        <CsrfInput />
        <input type="hidden" name="id" value={p.id} />
        <input type="hidden" name="version" value={version} />
        {kept ? <input type="hidden" name={KEPT_PARAM} value={kept.key} /> : null}
        <label htmlFor={`history-photo-${p.id}`}>Opis zdjęcia {index + 1}</label>
        <input id={`history-photo-${p.id}`} name="name" defaultValue={typed} maxLength={600} />
        <span className="move-buttons">
          <button type="submit" name="intent" value="describe" className="secondary">
            zapisz opis
          </button>
          <MoveButtons what={`zdjęcie „${label}”`} index={index} count={count} />
        </span>
      </fetcher.Form>
      <FormError message={scriptReply?.error} />
      <ConfirmButton
        action={PASTOR_HISTORY_PHOTOS_PATH}
        question={deleteQuestion(label)}
        fields={{ id: String(p.id) }}
        fetcherKey={`history-photo-remove-${p.id}`}
      >
        usuń<span className="visually-hidden"> zdjęcie „{label}”</span>
      </ConfirmButton>
    </>
  );
}
