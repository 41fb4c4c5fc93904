// Pure helpers over a layout tree (`LayoutNode`), as `getLayouts` returns it.

import type { LayoutNode, Layouts, LeafNode, NamedLayout } from "../types";

/** The cells in the tree's order (each split's children in turn); see `leavesInReadingOrder`. */
export function leavesOf(node: LayoutNode): LeafNode[] {
  if (node.type === "leaf") return [node];
  return node.children.flatMap(leavesOf);
}

/**
 * The cells in reading order by where they sit on screen: top to bottom, then left to right
 * (in a 2×2 grid the top-right cell is second, whatever the tree's nesting). Positions come
 * from the splits' ratios, so no layout needs measuring.
 */
export function leavesInReadingOrder(node: LayoutNode): LeafNode[] {
  const placed: { leaf: LeafNode; top: number; left: number }[] = [];
  const place = (at: LayoutNode, top: number, left: number, height: number, width: number) => {
    if (at.type === "leaf") {
      placed.push({ leaf: at, top, left });
      return;
    }
    const total = at.ratios.reduce((sum, r) => sum + r, 0) || 1;
    let offset = 0;
    at.children.forEach((child, index) => {
      const share = (at.ratios[index] ?? 1 / at.children.length) / total;
      if (at.direction === "horizontal") place(child, top, left + offset * width, height, share * width);
      else place(child, top + offset * height, left, share * height, width);
      offset += share;
    });
  };
  place(node, 0, 0, 1, 1);
  // Tops closer than this are one row: ratios summed in another order differ by rounding.
  const epsilon = 1e-6;
  placed.sort((a, b) => (Math.abs(a.top - b.top) > epsilon ? a.top - b.top : a.left - b.left));
  return placed.map((p) => p.leaf);
}

export function findLeaf(node: LayoutNode, nodeId: string): LeafNode | null {
  return leavesOf(node).find((leaf) => leaf.id === nodeId) ?? null;
}

/** The layout holding cell `nodeId`, if any. */
export function layoutOfCell(layouts: Layouts, nodeId: string): NamedLayout | null {
  return layouts.layouts.find((layout) => findLeaf(layout.tree, nodeId) !== null) ?? null;
}

/** A copy of the tree with split `splitId`'s ratios replaced. */
export function withRatios(node: LayoutNode, splitId: string, ratios: number[]): LayoutNode {
  if (node.type === "leaf") return node;
  if (node.id === splitId) return { ...node, ratios };
  return { ...node, children: node.children.map((child) => withRatios(child, splitId, ratios)) };
}

/** A name for a new layout that no tab uses yet ("Layout 2", "Layout 3", …). */
export function nextLayoutName(layouts: Layouts): string {
  const names = new Set(layouts.layouts.map((l) => l.name));
  for (let n = layouts.layouts.length + 1; ; n++) {
    const name = `Layout ${n}`;
    if (!names.has(name)) return name;
  }
}
