import { useEffect, useRef } from "react";

/**
 * A list row's ↑ and ↓, submit buttons of the row's form (`intent=up`,
 * `down`); the first row has no ↑, the last no ↓. `what` names the row in
 * their labels ('„Pastor”' gives 'przesuń „Pastor” wyżej').
 *
 * With JavaScript the row moves in the page at once, and the pressed button
 * loses the keyboard's focus: the row's element is moved, or the button is
 * gone (↓ on the row now last). The focus then goes back to it, or to the
 * row's other arrow, so a keyboard or screen-reader user can press again.
 */
export function MoveButtons({ what, index, count }: { what: string; index: number; count: number }) {
  const pressed = useRef<"up" | "down" | null>(null);
  const up = useRef<HTMLButtonElement>(null);
  const down = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const intent = pressed.current;
    if (!intent) return;
    pressed.current = null;
    // Only when the focus was lost, never taken from where the pastor put it since.
    if (document.activeElement && document.activeElement !== document.body) return;
    const [same, other] = intent === "up" ? [up, down] : [down, up];
    (same.current ?? other.current)?.focus();
  }, [index, count]);
  return (
    <>
      {index > 0 ? (
        <button
          ref={up}
          type="submit"
          name="intent"
          value="up"
          aria-label={`przesuń ${what} wyżej`}
          onClick={() => (pressed.current = "up")}
        >
          ↑
        </button>
      ) : null}
      {index < count - 1 ? (
        <button
          ref={down}
          type="submit"
          name="intent"
          value="down"
          aria-label={`przesuń ${what} niżej`}
          onClick={() => (pressed.current = "down")}
        >
          ↓
        </button>
      ) : null}
    </>
  );
}
