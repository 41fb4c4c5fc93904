import { useCallback } from "react";
import { request } from "../api";
import { actionOf, swapRefusal, type DropZone } from "../state/cellDrop";
import { useToaster } from "../state/toasts";
import { useWorkspace } from "../state/workspace";

export interface CellRearrange {
  /** Why `a` and `b` cannot swap now, or null. */
  swapRefusal(a: string, b: string): string | null;
  /** Drops cell `source` on `zone` of cell `target`: an edge moves it there, the centre swaps. */
  drop(layoutId: string, source: string, target: string, zone: DropZone): Promise<void>;
}

/**
 * Moving and swapping cells. The layout is refreshed by its `layoutsChanged` event; a failed
 * request is shown as a toast, a refused swap as a notice.
 */
export function useCellRearrange(): CellRearrange {
  const { sessions, reportError, setFocused } = useWorkspace();
  const toaster = useToaster();
  const byCell = sessions.byCell;

  const refusal = useCallback((a: string, b: string) => swapRefusal(byCell, a, b), [byCell]);

  const drop = useCallback(
    async (layoutId: string, source: string, target: string, zone: DropZone) => {
      if (source === target) return;
      const action = actionOf(zone);
      try {
        if (action.kind === "swap") {
          const refused = refusal(source, target);
          if (refused) {
            toaster.show({ kind: "info", text: refused });
            return;
          }
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
    [refusal, toaster, reportError, setFocused],
  );

  return { swapRefusal: refusal, drop };
}
