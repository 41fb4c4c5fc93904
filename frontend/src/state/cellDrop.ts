// Pure rules of dragging a cell onto another: which zone of the target the pointer is in, what
// dropping there asks of the backend.

import type { Direction, Side } from "../types";

/** The drag data type of a cell header: JSON `{layoutId, nodeId}` (`DraggedCell`). */
export const CELL_DRAG_MIME = "application/x-idea-cell";

/** The share of a cell's width (height) that counts as its left/right (top/bottom) edge. */
export const EDGE_BAND = 0.25;

export type DropZone = "left" | "right" | "top" | "bottom" | "center";

export interface DraggedCell {
  layoutId: string;
  nodeId: string;
}

/** What a drop asks for: put the dragged cell beside the target, or swap their contents. */
export type DropAction = { kind: "move"; direction: Direction; side: Side } | { kind: "swap" };

interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The zone of `rect` under the point: the nearest edge within its band, else the centre. */
export function zoneAt(rect: Rect, x: number, y: number): DropZone {
  if (rect.width <= 0 || rect.height <= 0) return "center";
  const fx = (x - rect.left) / rect.width;
  const fy = (y - rect.top) / rect.height;
  const edges: [DropZone, number][] = [
    ["left", fx],
    ["right", 1 - fx],
    ["top", fy],
    ["bottom", 1 - fy],
  ];
  const [zone, distance] = edges.reduce((best, edge) => (edge[1] < best[1] ? edge : best));
  return distance < EDGE_BAND ? zone : "center";
}

export function actionOf(zone: DropZone): DropAction {
  switch (zone) {
    case "left":
      return { kind: "move", direction: "horizontal", side: "before" };
    case "right":
      return { kind: "move", direction: "horizontal", side: "after" };
    case "top":
      return { kind: "move", direction: "vertical", side: "before" };
    case "bottom":
      return { kind: "move", direction: "vertical", side: "after" };
    case "center":
      return { kind: "swap" };
  }
}

export function isInside(rect: Rect, x: number, y: number): boolean {
  return x > rect.left && x < rect.left + rect.width && y > rect.top && y < rect.top + rect.height;
}

export function encodeDraggedCell(cell: DraggedCell): string {
  return JSON.stringify({ layoutId: cell.layoutId, nodeId: cell.nodeId });
}

export function decodeDraggedCell(text: string): DraggedCell | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null) return null;
    const { layoutId, nodeId } = value as Record<string, unknown>;
    return typeof layoutId === "string" && typeof nodeId === "string" ? { layoutId, nodeId } : null;
  } catch {
    return null;
  }
}
