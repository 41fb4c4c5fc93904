import { useCallback, useRef, useState } from "react";
import type { FocusRequest } from "../state/workspace";

/** The last focused cell, so a reload puts the focus back there. */
const FOCUSED_KEY = "idea.focusedCell";

/** The cell that had the focus before the page was (re)loaded, if any. */
export function lastFocusedCell(): string | null {
  return localStorage.getItem(FOCUSED_KEY);
}

/** Which cell has focus, requests to move focus into a cell, and the "Go to cell" highlight. */
export function useCellFocus() {
  const [focused, setFocusedState] = useState<string | null>(null);
  const setFocused = useCallback((nodeId: string) => {
    setFocusedState(nodeId);
    localStorage.setItem(FOCUSED_KEY, nodeId);
  }, []);
  const [focusRequest, setFocusRequest] = useState<FocusRequest | null>(null);
  const [flashed, setFlashed] = useState<string | null>(null);
  const seq = useRef(0);
  const flashTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const pending = useRef<string | null>(null);

  const requestFocus = useCallback((nodeId: string) => {
    pending.current = nodeId;
    setFocused(nodeId);
    setFocusRequest({ nodeId, seq: ++seq.current });
  }, [setFocused]);

  /** True once for the cell a focus request is for (the cell then moves focus into itself). */
  const claimFocus = useCallback((nodeId: string) => {
    if (pending.current !== nodeId) return false;
    pending.current = null;
    return true;
  }, []);

  const flash = useCallback((nodeId: string) => {
    if (flashTimer.current) clearTimeout(flashTimer.current);
    setFlashed(nodeId);
    flashTimer.current = setTimeout(() => setFlashed(null), 1200);
  }, []);

  return { focused, setFocused, focusRequest, requestFocus, claimFocus, flashed, flash };
}
