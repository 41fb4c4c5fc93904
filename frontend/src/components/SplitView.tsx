import { Fragment, useRef } from "react";
import { useWorkspace } from "../state/workspace";
import type { SplitNode } from "../types";
import { Gutter } from "./Gutter";
import { NodeView } from "./NodeView";

/** A split: its children side by side (`horizontal`) or stacked (`vertical`), with gutters to drag. */
export function SplitView({ layoutId, split }: { layoutId: string; split: SplitNode }) {
  const { layouts } = useWorkspace();
  const container = useRef<HTMLDivElement>(null);
  const horizontal = split.direction === "horizontal";

  return (
    <div
      ref={container}
      className={`split split-${split.direction}`}
      data-testid="split"
      data-split-id={split.id}
      data-direction={split.direction}
    >
      {split.children.map((child, index) => (
        <Fragment key={child.id}>
          {index > 0 && (
            <Gutter
              horizontal={horizontal}
              container={container}
              ratios={split.ratios}
              index={index - 1}
              onRatios={(ratios) => layouts.resizeSplit(layoutId, split.id, ratios)}
            />
          )}
          <div className="split-child" style={{ flexGrow: split.ratios[index] ?? 1 }}>
            <NodeView layoutId={layoutId} node={child} only={false} />
          </div>
        </Fragment>
      ))}
    </div>
  );
}
