import { findLeaf, leavesOf } from "../state/layoutTree";
import { useWorkspace } from "../state/workspace";
import type { NamedLayout } from "../types";
import { Cell } from "./Cell";
import { NodeView } from "./NodeView";

/** The active layout: its tree of cells, or only one cell (the zoomed one, or on a phone the one
 *  it shows; the others' terminals stay alive meanwhile). */
export function LayoutView({ layout, zoomed, phoneCell }: { layout: NamedLayout; zoomed: string | null; phoneCell: string | null }) {
  const soleId = phoneCell ?? zoomed;
  const soleLeaf = soleId ? findLeaf(layout.tree, soleId) : null;
  const { focused } = useWorkspace();
  const leaves = leavesOf(layout.tree);
  const only = leaves.length === 1;
  // The other cells are dimmed while one of this layout's cells has the focus.
  const dim = !soleLeaf && !only && leaves.some((leaf) => leaf.id === focused);
  return (
    <div
      className={`layout${dim ? " has-focus" : ""}`}
      data-testid="layout"
      data-layout-id={layout.id}
      data-zoomed={soleLeaf && !phoneCell ? soleLeaf.id : undefined}
      data-phone-cell={phoneCell ?? undefined}
    >
      {soleLeaf ? (
        <Cell key={soleLeaf.id} layoutId={layout.id} leaf={soleLeaf} only={only} zoomed />
      ) : (
        <NodeView layoutId={layout.id} node={layout.tree} only={only} />
      )}
    </div>
  );
}
