// Pure helpers over a layout tree (`LayoutNode`), as `getLayouts` returns it.

import type { LayoutNode, Layouts, LeafNode, NamedLayout } from "../types";

/** The cells, left to right and top to bottom. */
export function leavesOf(node: LayoutNode): LeafNode[] {
  if (node.type === "leaf") return [node];
  return node.children.flatMap(leavesOf);
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
