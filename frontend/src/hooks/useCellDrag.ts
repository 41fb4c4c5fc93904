import { useCallback, useSyncExternalStore, type DragEvent, type RefObject } from "react";
import { CELL_DRAG_MIME, decodeDraggedCell, encodeDraggedCell, isInside, zoneAt, type DropZone } from "../state/cellDrop";
import { dragLeave, dragOver, dragState, endCellDrag, startCellDrag, subscribeDrag } from "../state/dragStore";
import { useCellRearrange } from "./useCellRearrange";

/** Props of the element a cell is dragged by (its header's title area). */
export interface CellDragHandle {
  draggable: boolean;
  onDragStart(event: DragEvent<HTMLElement>): void;
  onDragEnd(): void;
}

/** Props of a cell as a drop target. */
export interface CellDropTarget {
  onDragEnter(event: DragEvent<HTMLElement>): void;
  onDragOver(event: DragEvent<HTMLElement>): void;
  onDragLeave(event: DragEvent<HTMLElement>): void;
  onDrop(event: DragEvent<HTMLElement>): void;
}

export interface CellDrag {
  handle: CellDragHandle;
  target: CellDropTarget;
  /** The zone under the pointer while another cell is dragged over this one. */
  over: { zone: DropZone } | null;
  /** This cell is the one being dragged. */
  dragged: boolean;
}

/**
 * Dragging cell `nodeId` by its header onto another cell (HTML5 drag and drop): the header
 * carries `CELL_DRAG_MIME`, the cell under the pointer shows the zone it would drop in, and the
 * drop moves (edges) or swaps (centre). Escape or leaving cancels; onto itself does nothing.
 */
export function useCellDrag(layoutId: string, nodeId: string, root: RefObject<HTMLElement | null>, enabled: boolean): CellDrag {
  const rearrange = useCellRearrange();
  const overZone = useSyncExternalStore(subscribeDrag, () => {
    const over = dragState().over;
    return over?.nodeId === nodeId ? over.zone : null;
  });
  const dragged = useSyncExternalStore(subscribeDrag, () => dragState().shownSource === nodeId);

  const onDragStart = useCallback(
    (event: DragEvent<HTMLElement>) => {
      const source = { layoutId, nodeId };
      event.dataTransfer.setData(CELL_DRAG_MIME, encodeDraggedCell(source));
      event.dataTransfer.effectAllowed = "move";
      startCellDrag(source);
    },
    [layoutId, nodeId],
  );

  /** The dragged cell, if this cell accepts it: a cell of this page and layout, not this one. */
  const acceptable = useCallback(
    (event: DragEvent<HTMLElement>) => {
      if (!event.dataTransfer.types.includes(CELL_DRAG_MIME)) return null;
      const source = dragState().source;
      return source && source.layoutId === layoutId && source.nodeId !== nodeId ? source : null;
    },
    [layoutId, nodeId],
  );

  const onDragOver = useCallback(
    (event: DragEvent<HTMLElement>) => {
      const element = root.current;
      if (!element || !acceptable(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "move";
      dragOver({ nodeId, zone: zoneAt(element.getBoundingClientRect(), event.clientX, event.clientY) });
    },
    [root, acceptable, nodeId],
  );

  const onDragLeave = useCallback(
    (event: DragEvent<HTMLElement>) => {
      const element = root.current;
      if (!element) return;
      // Leaving for one of the cell's own children is not leaving the cell.
      const next = event.relatedTarget;
      const inside = next instanceof Node ? element.contains(next) : isInside(element.getBoundingClientRect(), event.clientX, event.clientY);
      if (!inside) dragLeave(nodeId);
    },
    [root, nodeId],
  );

  const onDrop = useCallback(
    (event: DragEvent<HTMLElement>) => {
      const element = root.current;
      const source = acceptable(event);
      if (!element || !source) return;
      event.preventDefault();
      const carried = decodeDraggedCell(event.dataTransfer.getData(CELL_DRAG_MIME)) ?? source;
      const zone = zoneAt(element.getBoundingClientRect(), event.clientX, event.clientY);
      endCellDrag();
      if (carried.layoutId !== layoutId || carried.nodeId === nodeId) return;
      void rearrange.drop(layoutId, carried.nodeId, nodeId, zone);
    },
    [root, acceptable, layoutId, nodeId, rearrange],
  );


  return {
    handle: { draggable: enabled, onDragStart, onDragEnd: endCellDrag },
    target: { onDragEnter: onDragOver, onDragOver, onDragLeave, onDrop },
    over: overZone ? { zone: overZone } : null,
    dragged,
  };
}
