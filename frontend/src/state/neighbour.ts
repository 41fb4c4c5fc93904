// Which cell lies next to another on screen, for Alt+Arrow focus movement.

export type Heading = "left" | "right" | "up" | "down";

export interface CellBox {
  nodeId: string;
  rect: { left: number; right: number; top: number; bottom: number };
}

/** The nearest cell in `heading` from `from` that overlaps it on the other axis. */
export function neighbour(from: CellBox, cells: CellBox[], heading: Heading): string | null {
  const a = from.rect;
  const slack = 3;
  let best: { nodeId: string; gap: number; offset: number } | null = null;
  for (const cell of cells) {
    if (cell.nodeId === from.nodeId) continue;
    const b = cell.rect;
    let gap: number;
    let overlap: number;
    let offset: number;
    if (heading === "left" || heading === "right") {
      gap = heading === "left" ? a.left - b.right : b.left - a.right;
      overlap = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      offset = Math.abs((a.top + a.bottom) / 2 - (b.top + b.bottom) / 2);
    } else {
      gap = heading === "up" ? a.top - b.bottom : b.top - a.bottom;
      overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      offset = Math.abs((a.left + a.right) / 2 - (b.left + b.right) / 2);
    }
    if (gap < -slack || overlap <= 0) continue;
    if (!best || gap < best.gap - slack || (Math.abs(gap - best.gap) <= slack && offset < best.offset)) {
      best = { nodeId: cell.nodeId, gap, offset };
    }
  }
  return best?.nodeId ?? null;
}

/** The boxes of the cells currently on screen. */
export function visibleCells(): CellBox[] {
  return [...document.querySelectorAll<HTMLElement>('[data-testid="cell"][data-node-id]')].map((element) => {
    const r = element.getBoundingClientRect();
    return { nodeId: element.dataset.nodeId!, rect: { left: r.left, right: r.right, top: r.top, bottom: r.bottom } };
  });
}
