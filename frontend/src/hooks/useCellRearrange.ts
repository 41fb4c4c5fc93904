import { useCallback } from "react";
import { request } from "../api";
import { actionOf, type DropZone } from "../state/cellDrop";
import { useWorkspace } from "../state/workspace";

export interface CellRearrange {
  /** Drops cell `source` on `zone` of cell `target`: an edge moves it there, the centre swaps. */
  drop(layoutId: string, source: string, target: string, zone: DropZone): Promise<void>;
}

/**
 * Moving and swapping cells. The layout is refreshed by its `layoutsChanged` event; a failed
 * request is shown as a toast. A swap exchanges everything the two cells show, running
 * terminals included (the backend moves their sessions).
 */
export function useCellRearrange(): CellRearrange {
  const { reportError, setFocused } = useWorkspace();

  const drop = useCallback(
    async (layoutId: string, source: string, target: string, zone: DropZone) => {
      if (source === target) return;
      const action = actionOf(zone);
      try {
        if (action.kind === "swap") {
          await request("swapCells", { layoutId, a: source, b: target });
          setFocused(target);
        } else {
          await request("moveCell", { layoutId, nodeId: source, targetId: target, direction: action.direction, side: action.side });
          setFocused(source);
        }
      } catch (error) {
        reportError(error);
      }
    },
    [reportError, setFocused],
  );

  return { drop };
}
