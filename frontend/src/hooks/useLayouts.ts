import { useCallback, useEffect, useRef, useState } from "react";
import { request, type ApiError } from "../api";
import { withRatios } from "../state/layoutTree";
import type { Layouts } from "../types";
import { useCoalescedRefresh } from "./useCoalescedRefresh";
import { useDomainEvent } from "./useDomainEvent";

const RESIZE_SEND_DELAY_MS = 300;

export interface LayoutsState {
  layouts: Layouts | null;
  loadError: ApiError | null;
  refresh(): void;
  /** Shows `layoutId` at once and tells the backend. */
  setActive(layoutId: string): Promise<void>;
  /** Applies split ratios locally now and sends them once the drag pauses. */
  resizeSplit(layoutId: string, splitId: string, ratios: number[]): void;
}

/** The named layouts; refreshed on `layoutsChanged` and on reconnect. */
export function useLayouts(epoch: number, onError: (error: unknown) => void): LayoutsState {
  const [layouts, setLayouts] = useState<Layouts | null>(null);
  const [loadError, setLoadError] = useState<ApiError | null>(null);
  const resizeTimers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  const refresh = useCoalescedRefresh(async () => {
    try {
      const next = await request("getLayouts");
      // A drag in progress keeps its local ratios until they are sent.
      setLayouts(resizeTimers.current.size === 0 ? next : (prev) => prev ?? next);
      setLoadError(null);
    } catch (error) {
      setLoadError(error as ApiError);
    }
  });

  useEffect(() => {
    if (epoch > 0) refresh();
  }, [epoch, refresh]);

  useDomainEvent((event) => {
    if (event.type === "layoutsChanged" || event.type === "cellAgentAssigned" || event.type === "sessionStarted") {
      refresh();
    }
  });

  const setActive = useCallback(
    async (layoutId: string) => {
      setLayouts((prev) => (prev && prev.active !== layoutId ? { ...prev, active: layoutId } : prev));
      try {
        await request("setActiveLayout", { layoutId });
      } catch (error) {
        onError(error);
        refresh();
      }
    },
    [onError, refresh],
  );

  const resizeSplit = useCallback(
    (layoutId: string, splitId: string, ratios: number[]) => {
      setLayouts((prev) =>
        prev && {
          ...prev,
          layouts: prev.layouts.map((l) => (l.id === layoutId ? { ...l, tree: withRatios(l.tree, splitId, ratios) } : l)),
        },
      );
      const timers = resizeTimers.current;
      const key = `${layoutId}/${splitId}`;
      const pending = timers.get(key);
      if (pending) clearTimeout(pending);
      timers.set(
        key,
        setTimeout(() => {
          timers.delete(key);
          request("resizeSplit", { layoutId, splitId, ratios }).catch((error: unknown) => {
            onError(error);
            refresh();
          });
        }, RESIZE_SEND_DELAY_MS),
      );
    },
    [onError, refresh],
  );

  return { layouts, loadError, refresh, setActive, resizeSplit };
}
