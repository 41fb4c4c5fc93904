import type { LayoutNode } from "../types";
import { Cell } from "./Cell";
import { SplitView } from "./SplitView";

/** One node of a layout tree: a cell, or a split of further nodes. */
export function NodeView({ layoutId, node, only }: { layoutId: string; node: LayoutNode; only: boolean }) {
  if (node.type === "leaf") return <Cell layoutId={layoutId} leaf={node} only={only} zoomed={false} />;
  return <SplitView layoutId={layoutId} split={node} />;
}
