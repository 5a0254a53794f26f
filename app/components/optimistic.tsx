// Optimistic saves of the pastor's list pages and forms. With JavaScript a
// form is sent by the script (a fetcher with a key of its own), and the page
// shows at once what the post will change, read from the fields being sent
// (a row moved by ↑/↓, a removed one gone, a new name or a draft mark); the
// server's answer then replaces that: a save redirects with its one-time
// message and the page's data is read again, a refusal (a wrong value, a
// newer version, 503 while the database is away) is shown beside the form,
// the page back in the server's state and whatever was typed still in the
// fields. Without JavaScript the same forms post as plain HTML forms.
import { useFetcher, useFetchers, useSubmit } from "@remix-run/react";
import { type FormEvent, useEffect, useRef, useState } from "react";

/** Flags a row of an optimistic list may carry (see SortableList). */
export interface OptimisticRow {
  /** Removed by a post not yet answered: kept in the page, hidden, so its form and message stay. */
  leaving?: boolean;
  /** Added by a post not yet answered: shown, but not yet a row that can be moved or edited. */
  unsaved?: boolean;
}

/** The fields of the posts to `action` that the page's script is sending now, oldest first. */
export function usePendingPosts(action: string): FormData[] {
  return useFetchers().flatMap((f) =>
    f.formData && f.formMethod?.toLowerCase() === "post" && f.formAction?.split("?")[0] === action ? [f.formData] : [],
  );
}

/**
 * The list as it will be once `posts` are saved: a row moved by `intent=up`
 * or `down`, one removed by a confirmed `delete` marked as leaving, and any
 * other post about a row given to `change` (a new name, hidden or shown).
 */
export function optimisticList<T extends { id: number }>(
  items: T[],
  posts: FormData[],
  change: (item: T, post: FormData) => T = (item) => item,
): (T & OptimisticRow)[] {
  let list: (T & OptimisticRow)[] = [...items];
  for (const post of posts) {
    const intent = post.get("intent");
    const id = Number(post.get("id"));
    const at = list.findIndex((i) => i.id === id);
    if (at < 0) continue;
    if (intent === "up" || intent === "down") {
      // The nearest row still shown in that direction, as the server swaps them.
      const step = intent === "up" ? -1 : 1;
      let to = at + step;
      while (list[to]?.leaving) to += step;
      if (to < 0 || to >= list.length) continue;
      list = [...list];
      [list[at], list[to]] = [list[to], list[at]];
    } else if (intent === "delete") {
      if (post.get("confirmed") === "1") list = list.map((i) => (i.id === id ? { ...i, leaving: true } : i));
    } else {
      list = list.map((i) => (i.id === id ? { ...i, ...change(i, post) } : i));
    }
  }
  return list;
}

/**
 * A form sent by the script, and the answer of its last post: a refusal's
 * `{ error, … }` (kept while the form is sent again, so the form shown does
 * not change under the pastor's hands); nothing once a post is saved, when
 * `onSaved` is called, or before any post. Without JavaScript `fetcher.Form`
 * is a plain form.
 *
 * Each post given to `onSubmit` (the form's) goes under a key of its own,
 * `key:1`, `key:2`, …: a second post under one fetcher's key would cancel the
 * first, so ↑ tapped twice on a row before the first answer lost a move. The
 * page shows every post still on its way (usePendingPosts) and the answer
 * of the last. A post sent by other code under `key` itself (ConfirmButton)
 * is read the same way.
 *
 * A save is answered by a redirect, which leaves the fetcher's data as it
 * was: a post that ends with the same data as it began with was saved.
 */
export function useScriptForm<T>(key: string | undefined, onSaved?: () => void) {
  const posts = useRef(0);
  const [last, setLast] = useState(0);
  const current = key !== undefined && last > 0 ? `${key}:${last}` : key;
  // The form is always the first fetcher's: each key has a Form component of
  // its own, and a new one would remount the form and lose what was typed.
  const { Form } = useFetcher({ key });
  const fetcher = { ...useFetcher({ key: current }), Form };
  const submit = useSubmit();
  const [reply, setReply] = useState<T | undefined>(undefined);
  const sent = useRef<{ key: string | undefined; data: unknown } | null>(null);
  const saved = useRef(onSaved);
  saved.current = onSaved;
  useEffect(() => {
    if (fetcher.state !== "idle") {
      if (!sent.current || sent.current.key !== current) sent.current = { key: current, data: fetcher.data };
      // A refusal's answer, while the page's data is read again.
      else if (fetcher.data !== sent.current.data) setReply(fetcher.data as T);
      return;
    }
    if (!sent.current || sent.current.key !== current) return;
    const answered = fetcher.data !== sent.current.data;
    sent.current = null;
    setReply(answered ? (fetcher.data as T) : undefined);
    if (!answered) saved.current?.();
  }, [current, fetcher.state, fetcher.data]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (key === undefined) return;
    event.preventDefault();
    const form = event.currentTarget;
    const next = ++posts.current;
    setLast(next);
    // The button pressed, so its name and value (intent=up) are sent as a form would.
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    submit(submitter ?? form, {
      method: "post",
      action: form.getAttribute("action") ?? undefined,
      navigate: false,
      fetcherKey: `${key}:${next}`,
      preventScrollReset: true,
    });
  }
  return { fetcher, reply, onSubmit };
}

/** 'Zapisywanie…' while a post is being sent, announced (a live region, in the page from the start). */
export function SavingNote({ busy }: { busy: boolean }) {
  return (
    <p role="status" className="visually-hidden">
      {busy ? SAVING : null}
    </p>
  );
}

export const SAVING = "Zapisywanie…";
