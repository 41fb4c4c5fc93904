// The cell drag in progress, shared by every cell: which cell is dragged (read during dragover,
// when the drag data itself is not readable) and which cell and zone the pointer is over (the
// one overlay shown). Cleared when the drag ends, whichever element ends it.

import type { DraggedCell, DropZone } from "./cellDrop";

export interface DropTarget {
  nodeId: string;
  zone: DropZone;
}

interface DragState {
  /** The dragged cell, set as the drag starts. */
  source: DraggedCell | null;
  /** The dragged cell's id once shown as such (a frame later: Chrome cancels a drag whose
   * source changes during dragstart). */
  shownSource: string | null;
  over: DropTarget | null;
}

const IDLE: DragState = { source: null, shownSource: null, over: null };
let state: DragState = IDLE;
const listeners = new Set<() => void>();

function set(next: DragState): void {
  if (next === state) return;
  state = next;
  for (const listener of listeners) listener();
}

function onKeyDown(event: KeyboardEvent): void {
  if (event.key === "Escape") endCellDrag();
}

export function subscribeDrag(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function dragState(): DragState {
  return state;
}

export function startCellDrag(source: DraggedCell): void {
  state = { source, shownSource: null, over: null };
  setTimeout(() => {
    if (state.source === source) set({ ...state, shownSource: source.nodeId });
  }, 0);
  // A drag ends with dragend on its source; if that element was replaced meanwhile, the drop
  // (or an Escape afterwards) still clears the state.
  window.addEventListener("dragend", endCellDrag, true);
  window.addEventListener("drop", endCellDrag);
  window.addEventListener("keydown", onKeyDown, true);
}

/** Shows the overlay on `target` (hides any other). */
export function dragOver(target: DropTarget): void {
  const over = state.over;
  if (over?.nodeId === target.nodeId && over.zone === target.zone) return;
  set({ ...state, over: target });
}

/** Hides the overlay of cell `nodeId`, if it is the one shown. */
export function dragLeave(nodeId: string): void {
  if (state.over?.nodeId === nodeId) set({ ...state, over: null });
}

export function endCellDrag(): void {
  window.removeEventListener("dragend", endCellDrag, true);
  window.removeEventListener("drop", endCellDrag);
  window.removeEventListener("keydown", onKeyDown, true);
  set(IDLE);
}
