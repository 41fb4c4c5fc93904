import type { RefObject } from "react";

/** Smallest share a drag may leave a child (the backend refuses less). */
const MIN_RATIO = 0.05;
const GUTTER_PX = 4;

/**
 * The handle between children `index` and `index + 1` of a split: dragging it moves space
 * between these two only. Ratios are reported on every move; the caller debounces the save.
 */
export function Gutter(props: {
  horizontal: boolean;
  container: RefObject<HTMLDivElement | null>;
  ratios: number[];
  index: number;
  onRatios(ratios: number[]): void;
}) {
  const onPointerDown = (event: React.PointerEvent<HTMLDivElement>) => {
    const box = props.container.current?.getBoundingClientRect();
    if (!box || event.button !== 0) return;
    event.preventDefault();
    const handle = event.currentTarget;
    const start = props.horizontal ? event.clientX : event.clientY;
    const gutters = (props.ratios.length - 1) * GUTTER_PX;
    const span = (props.horizontal ? box.width : box.height) - gutters;
    const initial = [...props.ratios];
    const i = props.index;
    const pair = initial[i]! + initial[i + 1]!;
    if (pair < 2 * MIN_RATIO) return;
    handle.setPointerCapture(event.pointerId);
    document.body.classList.add(props.horizontal ? "resizing-h" : "resizing-v");

    const onMove = (move: PointerEvent) => {
      if (span <= 0) return;
      const delta = ((props.horizontal ? move.clientX : move.clientY) - start) / span;
      const first = Math.min(Math.max(initial[i]! + delta, MIN_RATIO), pair - MIN_RATIO);
      const next = [...initial];
      next[i] = first;
      next[i + 1] = pair - first;
      props.onRatios(next);
    };
    const onUp = () => {
      handle.removeEventListener("pointermove", onMove);
      handle.removeEventListener("pointerup", onUp);
      handle.removeEventListener("pointercancel", onUp);
      document.body.classList.remove("resizing-h", "resizing-v");
    };
    handle.addEventListener("pointermove", onMove);
    handle.addEventListener("pointerup", onUp);
    handle.addEventListener("pointercancel", onUp);
  };

  return (
    <div
      className={`gutter gutter-${props.horizontal ? "h" : "v"}`}
      data-testid="gutter"
      role="separator"
      aria-orientation={props.horizontal ? "vertical" : "horizontal"}
      onPointerDown={onPointerDown}
    />
  );
}
