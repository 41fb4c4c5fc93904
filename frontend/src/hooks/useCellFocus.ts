import { useCallback, useRef, useState } from "react";
import type { FocusRequest } from "../state/workspace";

/** Which cell has focus, requests to move focus into a cell, and the "Go to cell" highlight. */
export function useCellFocus() {
  const [focused, setFocused] = useState<string | null>(null);
  const [focusRequest, setFocusRequest] = useState<FocusRequest | null>(null);
  const [flashed, setFlashed] = useState<string | null>(null);
  const seq = useRef(0);
  const flashTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const pending = useRef<string | null>(null);

  const requestFocus = useCallback((nodeId: string) => {
    pending.current = nodeId;
    setFocused(nodeId);
    setFocusRequest({ nodeId, seq: ++seq.current });
  }, []);

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
