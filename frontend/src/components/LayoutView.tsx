import { findLeaf, leavesOf } from "../state/layoutTree";
import { useWorkspace } from "../state/workspace";
import type { NamedLayout } from "../types";
import { Cell } from "./Cell";
import { NodeView } from "./NodeView";

/** The active layout: its tree of cells, or only the zoomed cell. */
export function LayoutView({ layout, zoomed }: { layout: NamedLayout; zoomed: string | null }) {
  const zoomedLeaf = zoomed ? findLeaf(layout.tree, zoomed) : null;
  const { focused } = useWorkspace();
  const leaves = leavesOf(layout.tree);
  const only = leaves.length === 1;
  // The other cells are dimmed while one of this layout's cells has the focus.
  const dim = !zoomedLeaf && !only && leaves.some((leaf) => leaf.id === focused);
  return (
    <div className={`layout${dim ? " has-focus" : ""}`} data-testid="layout" data-layout-id={layout.id} data-zoomed={zoomedLeaf ? zoomedLeaf.id : undefined}>
      {zoomedLeaf ? (
        <Cell layoutId={layout.id} leaf={zoomedLeaf} only={only} zoomed />
      ) : (
        <NodeView layoutId={layout.id} node={layout.tree} only={only} />
      )}
    </div>
  );
}
