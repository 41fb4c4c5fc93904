import { findLeaf, leavesOf } from "../state/layoutTree";
import type { NamedLayout } from "../types";
import { Cell } from "./Cell";
import { NodeView } from "./NodeView";

/** The active layout: its tree of cells, or only the zoomed cell. */
export function LayoutView({ layout, zoomed }: { layout: NamedLayout; zoomed: string | null }) {
  const zoomedLeaf = zoomed ? findLeaf(layout.tree, zoomed) : null;
  const only = leavesOf(layout.tree).length === 1;
  return (
    <div className="layout" data-testid="layout" data-layout-id={layout.id} data-zoomed={zoomedLeaf ? zoomedLeaf.id : undefined}>
      {zoomedLeaf ? (
        <Cell layoutId={layout.id} leaf={zoomedLeaf} only={only} zoomed />
      ) : (
        <NodeView layoutId={layout.id} node={layout.tree} only={only} />
      )}
    </div>
  );
}
